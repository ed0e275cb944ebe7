#!/usr/bin/env bash
# A whole match with curl and jq alone (docs/clients.md): register, create a match against a
# server bot, then read the match and act until it is over. Without a WebSocket there is no
# push, so this client polls: fine for scripts and tests, wasteful for a long-lived bot.
#
#   examples/curl-session.sh                          # against http://localhost:3000/graphql
#   GRAPHQL_URL=http://host:3000/graphql TARGET_SCORE=100 examples/curl-session.sh
#
# Exits 0 once the match is FINISHED, printing its result as JSON.
set -euo pipefail

URL="${GRAPHQL_URL:-http://localhost:3000/graphql}"
TARGET_SCORE="${TARGET_SCORE:-100}"
TOKEN=""

# gql QUERY [VARIABLES_JSON]: POST one GraphQL request; prints .data, or the errors and fails.
gql() {
  local vars="${2:-}" body response auth=()
  [ -n "$vars" ] || vars='{}'
  [ -z "$TOKEN" ] || auth=(-H "authorization: Bearer $TOKEN")
  body=$(jq -cn --arg q "$1" --argjson v "$vars" '{query: $q, variables: $v}')
  response=$(curl -sS "$URL" -H 'content-type: application/json' "${auth[@]}" -d "$body")
  if jq -e '.errors' <<<"$response" >/dev/null; then
    echo "error: $(jq -c '.errors[0] | {code: .extensions.code, reason: .extensions.reason, message}' <<<"$response")" >&2
    return 1
  fi
  jq -c '.data' <<<"$response"
}

TOKEN=$(gql 'mutation($name: String!) { registerPlayer(name: $name) { token } }' '{"name":"curl-player"}' | jq -r '.registerPlayer.token')

MATCH_ID=$(gql 'mutation($input: CreateMatchInput!) { createMatch(input: $input) { id } }' \
  "$(jq -cn --argjson t "$TARGET_SCORE" '{input: {seats: 2, bots: 1, rules: {targetScore: $t}}}')" | jq -r '.createMatch.id')
echo "match $MATCH_ID"

READ='query($id: ID!) { match(id: $id) { status version turn mySeat canDraw legalMoves { tile { high low } end } teams { score } winner { index } } }'
PLAY='mutation($input: PlayTileInput!) { playTile(input: $input) { version } }'
DRAW='mutation($input: TurnInput!) { drawTile(input: $input) { version } }'

moves=0
while :; do
  match=$(gql "$READ" "$(jq -cn --arg id "$MATCH_ID" '{id: $id}')" | jq -c '.match')
  status=$(jq -r '.status' <<<"$match")
  [ "$status" = "IN_PROGRESS" ] || break
  if [ "$(jq '.turn == .mySeat' <<<"$match")" != "true" ]; then
    sleep 0.1 # the server's bot is moving
    continue
  fi
  # expectedVersion guards against acting on a stale read; clientMoveId makes a retry safe.
  version=$(jq '.version' <<<"$match")
  if [ "$(jq '.legalMoves | length' <<<"$match")" -gt 0 ]; then
    input=$(jq -c --arg id "$MATCH_ID" --arg key "$MATCH_ID-$version" \
      '{input: {matchId: $id, tile: .legalMoves[0].tile, end: .legalMoves[0].end, expectedVersion: .version, clientMoveId: $key}}' <<<"$match")
    gql "$PLAY" "$input" >/dev/null
  else
    input=$(jq -cn --arg id "$MATCH_ID" --arg key "$MATCH_ID-$version" --argjson v "$version" \
      '{input: {matchId: $id, expectedVersion: $v, clientMoveId: $key}}')
    gql "$DRAW" "$input" >/dev/null
  fi
  moves=$((moves + 1))
done

jq -c --arg id "$MATCH_ID" --argjson moves "$moves" \
  '{matchId: $id, status, winner: .winner.index, scores: [.teams[].score], mySeat, moves: $moves}' <<<"$match"
[ "$status" = "FINISHED" ]
