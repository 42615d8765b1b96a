/** What the OpenAPI document says about webhook events and their delivery. */

export const EVENTS_DOC = `Events (\`data\` of a delivery is the payload below plus \`id\`, the event id):
- \`user_registered\`: \`{participant: {id, email, name}}\`; a grant or an order created the participant.
- \`access_granted\`: \`{participant: {id, email}, resource: {type: "course" | "audiobook", id}, access_level, source: {kind: "direct"} | {kind: "order", order_id}}\`; access started or its level rose.
- \`access_revoked\`: same fields; \`access_level\` is what remains (\`null\`: the access is gone).
- \`order_fulfilled\`: \`{order: {id, external_id, ordinal_number, gift_code}, participant: {id, email}, courses: [{id, access_level}], files: [{key, name, description, cover_key, uri}]}\`; \`files\` are the order lines' \`file_keys\`, one per key (members absent in the order are null).
- \`lesson_completed\`: \`{participant: {id, email}, course: {id, title}, lesson: {id, title}, completed_at}\`.
- \`course_completed\`: \`{participant: {id, email}, course: {id, title}, completed_at}\`; every lesson the participant's access level opens is completed (once per participant and course).
- \`quiz_passed\`: \`{participant: {id, email}, course: {id, title}, lesson: {id, title}, quiz_id, score, result_id}\`.`;

export const DELIVERY_DOC = `Delivery: \`POST <url>\` with \`Content-Type: application/json\` and the body \`{type, timestamp, data}\` (\`timestamp\`: when the event happened). Headers:
- \`X-Webhook-Signature: sha256=<hex>\`: HMAC-SHA256 of the exact body bytes, keyed with the UTF-8 bytes of \`secret_key\`.
- Standard Webhooks: \`webhook-id\` (the event id; the same on every retry and redelivery, so duplicates can be dropped), \`webhook-timestamp\` (Unix seconds of the attempt), \`webhook-signature: v1,<base64>\`: HMAC-SHA256 of \`<webhook-id>.<webhook-timestamp>.<body>\`, keyed with the base64-decoded part after \`whsec_\` when \`secret_key\` starts with \`whsec_\`, else with the UTF-8 bytes of \`secret_key\`.
Success is a 2xx within 10 s. Redirects are not followed (a 3xx is a failure). Failures are retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 20 h and 24 h after the previous attempt (10 attempts over about three days), each wait +-10 % jitter; a longer \`Retry-After\` (seconds or HTTP date, up to 24 h) is honoured. A 410 disables the webhook (\`active: false\`) and ends the delivery. Addresses in private, loopback, link-local, unique-local, unspecified, multicast or reserved ranges (IPv4, IPv6, IPv4-mapped and NAT64 forms, and names resolving to any of them) are not contacted: the delivery is \`failed\` at once, with the reason in its attempt.`;
