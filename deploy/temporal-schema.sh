#!/bin/sh
# Creates or upgrades Temporal's two PostgreSQL databases; safe to run on every start.
set -eu
schema=/etc/temporal/schema/postgresql/v12
sql() {
    temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "${DB_PORT:-5432}" \
        -u "$POSTGRES_USER" "$@"
}
for db in temporal temporal_visibility; do
    dir=temporal
    [ "$db" = temporal_visibility ] && dir=visibility
    sql --db "$db" create || echo "database $db already exists"
    sql --db "$db" setup-schema -v 0.0
    sql --db "$db" update-schema -d "$schema/$dir/versioned"
done
echo "Temporal schema is up to date"
