#!/bin/sh
# Creates the namespace and the search attributes ticketsmith sets; safe to run on every start.
set -eu
address="${TEMPORAL_ADDRESS:-temporal:7233}"
namespace="${TEMPORAL_NAMESPACE:-default}"
tries=0
until temporal operator cluster health --address "$address"; do
    tries=$((tries + 1))
    [ "$tries" -ge 30 ] && { echo "Temporal at $address is not healthy" >&2; exit 1; }
    sleep 2
done
temporal operator namespace describe -n "$namespace" --address "$address" >/dev/null 2>&1 \
    || temporal operator namespace create -n "$namespace" --retention 30d --address "$address"
# A new namespace takes a few seconds to reach the server's namespace cache.
tries=0
until existing="$(temporal operator search-attribute list -n "$namespace" --address "$address")"; do
    tries=$((tries + 1))
    [ "$tries" -ge 30 ] && { echo "namespace $namespace did not become ready" >&2; exit 1; }
    sleep 2
done
for name in $SEARCH_ATTRIBUTES; do
    if echo "$existing" | grep -qw "$name"; then
        echo "search attribute $name exists"
    else
        temporal operator search-attribute create -n "$namespace" --address "$address" \
            --name "$name" --type Keyword
    fi
done
