/**
 * Workflow histories to and from the JSON that Temporal's own tools write (the CLI's
 * `temporal workflow show --output json`, the Web UI's download): the SDK's `historyToJSON` and
 * `historyFromJSON` do the same, but fail in this dependency tree ("type must be a Type": the SDK
 * packages each carry their own protobufjs copy, and the JSON extension of one does not take the
 * types of another). Here the extension is taken from the copy `@temporalio/proto` itself uses.
 */
import { createRequire } from 'node:module';
import proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root.js';

type History = proto.temporal.api.history.v1.IHistory;

interface ProtoJson {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options?: { ignoreUnknownFields?: boolean }): unknown;
}

const requireFromProto = createRequire(createRequire(import.meta.url).resolve('@temporalio/proto'));
const protojson = requireFromProto('protobufjs/ext/protojson') as ProtoJson;
const historyType = (patchProtobufRoot(proto) as unknown as { lookupType(name: string): unknown }).lookupType('temporal.api.history.v1.History');

/** The history as Temporal's JSON (a plain object, ready for JSON.stringify). */
export function historyToJson(history: History): unknown {
  return protojson.toJson(historyType, proto.temporal.api.history.v1.History.fromObject(history));
}

/** A history read from Temporal's JSON, for `Worker.runReplayHistories`. */
export function historyFromJson(json: unknown): History {
  return protojson.fromJson(historyType, json, { ignoreUnknownFields: true }) as History;
}
