{{- define "coursehub.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "coursehub.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "coursehub.selector" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "coursehub.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "coursehub.secretName" -}}
{{ .Values.existingSecret | default (include "coursehub.fullname" .) }}
{{- end -}}

{{/* The environment every container reads: the ConfigMap, then the Secret. */}}
{{- define "coursehub.envFrom" -}}
- configMapRef:
    name: {{ include "coursehub.fullname" . }}
- secretRef:
    name: {{ include "coursehub.secretName" . }}
{{- end -}}

{{- define "coursehub.storage" -}}
- name: storage
{{- if .Values.storage.existingClaim }}
  persistentVolumeClaim:
    claimName: {{ .Values.storage.existingClaim }}
{{- else }}
  emptyDir: {}
{{- end }}
{{- end -}}

{{/* A config or secret map with its empty values left out (an empty variable is not "unset"). */}}
{{- define "coursehub.nonEmpty" -}}
{{- range $key, $value := . }}
{{- if ne (toString $value) "" }}
{{ $key }}: {{ toString $value | quote }}
{{- end }}
{{- end }}
{{- end -}}


{{/* The ConfigMap's data: the values' config and what the chart fixes (listen addresses, paths). */}}
{{- define "coursehub.configData" -}}
{{- include "coursehub.nonEmpty" .Values.config }}
HOST: "0.0.0.0"
PORT: {{ .Values.api.port | quote }}
{{- with .Values.api.betaPort }}
BETA_PORT: {{ . | quote }}
{{- end }}
STORAGE_DIR: /app/.data/storage
WORKER_METRICS_HOST: "0.0.0.0"
WORKER_METRICS_PORT: {{ .Values.worker.metricsPort | quote }}
{{- end -}}

{{/* The Secret's data, refusing to render without the three required values. */}}
{{- define "coursehub.secretData" -}}
{{- range $key := list "DATABASE_URL" "ADMIN_TOKEN" "SECRETS_KEY" }}
{{- if not (index $.Values.secrets $key) }}
{{- fail (printf "secrets.%s is required (or name a Secret holding it in existingSecret)" $key) }}
{{- end }}
{{- end }}
{{- include "coursehub.nonEmpty" .Values.secrets }}
{{- end -}}
