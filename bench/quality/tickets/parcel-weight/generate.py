"""Write the generated part of this ticket's repository: `depot`, a warehouse back office.

    python bench/quality/tickets/parcel-weight/generate.py

Each area of the business is a package of small modules with real functions built from a few
shapes (totals, filters, groupings, labels, shares) over that module's records; the modules
the ticket is about (depot/core, depot/shipping) are written by hand and left as they are.
"""

from pathlib import Path

REPO = Path(__file__).resolve().parent / "repo"

# package -> module -> (the records it handles, a numeric field, a status, a grouping field)
AREAS: dict[str, dict[str, tuple[str, str, str, str]]] = {
    "inventory": {
        "stock": ("items", "quantity", "reserved", "location"),
        "bins": ("bins", "capacity", "blocked", "aisle"),
        "counts": ("counts", "difference", "open", "counter"),
        "batches": ("batches", "units", "expired", "supplier"),
        "moves": ("moves", "units", "pending", "reason"),
        "reorder": ("rules", "minimum", "active", "supplier"),
        "serials": ("serials", "age_days", "scrapped", "model"),
        "kits": ("kits", "parts", "assembled", "kind"),
        "cycle": ("zones", "items", "due", "shift"),
        "valuation": ("lots", "cost", "written_off", "category"),
    },
    "orders": {
        "lines": ("lines", "amount", "backordered", "sku"),
        "status": ("orders", "items", "cancelled", "channel"),
        "holds": ("holds", "days", "released", "reason"),
        "priority": ("orders", "score", "express", "region"),
        "splits": ("splits", "lines", "merged", "warehouse"),
        "notes": ("notes", "length", "internal", "author"),
        "imports": ("rows", "line_number", "rejected", "source"),
        "promises": ("promises", "days", "broken", "carrier"),
        "history": ("events", "sequence", "reverted", "actor"),
        "channels": ("channels", "orders", "paused", "market"),
    },
    "picking": {
        "waves": ("waves", "orders", "released", "shift"),
        "routes": ("stops", "distance", "skipped", "aisle"),
        "carts": ("carts", "slots", "full", "zone"),
        "tasks": ("tasks", "minutes", "done", "picker"),
        "shortages": ("shortages", "missing", "resolved", "sku"),
        "scanners": ("scans", "attempts", "failed", "device"),
        "zones": ("zones", "pickers", "closed", "floor"),
        "batches": ("batches", "orders", "printed", "wave"),
        "performance": ("shifts", "lines", "overtime", "team"),
    },
    "packing": {
        "stations": ("stations", "parcels", "idle", "hall"),
        "boxes": ("boxes", "stock", "retired", "size"),
        "fillers": ("fillers", "litres", "empty", "material"),
        "checks": ("checks", "mismatches", "failed", "packer"),
        "slips": ("slips", "lines", "reprinted", "language"),
        "gifts": ("wraps", "minutes", "requested", "style"),
        "seals": ("seals", "metres", "broken", "tape"),
        "queues": ("queues", "waiting", "stalled", "station"),
        "materials": ("materials", "cost", "discontinued", "vendor"),
    },
    "billing": {
        "invoices": ("invoices", "amount_due", "paid", "customer"),
        "credits": ("credits", "amount", "applied", "reason"),
        "dunning": ("reminders", "days_overdue", "sent", "level"),
        "payments": ("payments", "amount", "refunded", "method"),
        "statements": ("statements", "balance", "closed", "month"),
        "fees": ("fees", "amount", "waived", "kind"),
        "terms": ("terms", "days", "custom", "segment"),
        "exports": ("entries", "amount", "exported", "ledger"),
        "currencies": ("rates", "rate", "stale", "currency"),
        "vouchers": ("vouchers", "value", "redeemed", "campaign"),
    },
    "customers": {
        "accounts": ("accounts", "orders", "closed", "segment"),
        "addresses": ("addresses", "uses", "invalid", "country"),
        "contacts": ("contacts", "calls", "unsubscribed", "role"),
        "segments": ("segments", "members", "archived", "owner"),
        "loyalty": ("members", "points", "lapsed", "tier"),
        "complaints": ("complaints", "days_open", "escalated", "topic"),
        "consents": ("consents", "version", "withdrawn", "purpose"),
        "portals": ("logins", "sessions", "locked", "browser"),
        "credit": ("limits", "limit", "frozen", "rating"),
    },
    "suppliers": {
        "catalogue": ("products", "price", "delisted", "brand"),
        "purchase": ("purchases", "amount", "received", "supplier"),
        "receiving": ("deliveries", "pallets", "rejected", "dock"),
        "ratings": ("ratings", "score", "disputed", "supplier"),
        "contracts": ("contracts", "months", "expired", "supplier"),
        "leadtimes": ("quotes", "days", "late", "supplier"),
        "claims": ("claims", "amount", "settled", "supplier"),
        "samples": ("samples", "units", "approved", "category"),
        "audits": ("audits", "findings", "passed", "site"),
    },
    "returns": {
        "requests": ("requests", "items", "approved", "reason"),
        "inspection": ("inspections", "defects", "passed", "inspector"),
        "refunds": ("refunds", "amount", "issued", "method"),
        "restock": ("items", "quantity", "restocked", "location"),
        "labels": ("labels", "weight_g", "used", "carrier"),
        "reasons": ("reasons", "count", "hidden", "group"),
        "fraud": ("cases", "score", "confirmed", "channel"),
        "exchanges": ("exchanges", "items", "shipped", "size"),
        "disposal": ("lots", "units", "recycled", "method"),
    },
    "reports": {
        "daily": ("days", "orders", "closed", "site"),
        "weekly": ("weeks", "revenue", "final", "region"),
        "kpis": ("kpis", "value", "breached", "owner"),
        "throughput": ("hours", "parcels", "peak", "hall"),
        "errors": ("errors", "count", "acknowledged", "system"),
        "staffing": ("shifts", "hours", "understaffed", "team"),
        "margins": ("products", "margin", "negative", "category"),
        "forecasts": ("forecasts", "units", "revised", "sku"),
        "exports": ("rows", "bytes", "truncated", "report"),
    },
    "notifications": {
        "emails": ("emails", "recipients", "bounced", "template"),
        "sms": ("messages", "segments", "failed", "country"),
        "webhooks": ("calls", "attempts", "dead", "endpoint"),
        "templates": ("templates", "version", "draft", "language"),
        "digests": ("digests", "items", "skipped", "frequency"),
        "alerts": ("alerts", "severity", "muted", "team"),
        "schedules": ("jobs", "interval_minutes", "paused", "queue"),
        "preferences": ("preferences", "channels", "opted_out", "topic"),
        "throttle": ("windows", "sent", "limited", "channel"),
    },
    "staff": {
        "rota": ("shifts", "hours", "swapped", "team"),
        "skills": ("skills", "level", "expired", "area"),
        "training": ("courses", "hours", "mandatory", "trainer"),
        "absence": ("absences", "days", "approved", "kind"),
        "badges": ("badges", "doors", "revoked", "site"),
        "payroll": ("payslips", "gross", "corrected", "month"),
        "safety": ("incidents", "severity", "closed", "hall"),
        "overtime": ("entries", "hours", "approved", "team"),
        "handover": ("notes", "items", "read", "shift"),
    },
}


def singular(noun: str) -> str:
    """The singular of the plural nouns the areas use."""
    if noun.endswith("ies"):
        return noun[:-3] + "y"
    if noun.endswith(("ches", "shes", "sses", "xes")):
        return noun[:-2]
    return noun.removesuffix("s")


def module_text(package: str, module: str, records: str, field: str, status: str, group: str) -> str:
    """A module of small functions over its records."""
    noun = singular(records)
    title = f"{package.capitalize()}: {module.replace('_', ' ')}"
    return f'''"""{title} ({records}, by {group})."""

from depot.core.records import Record, field_of


def total_{field}(records: list[Record]) -> float:
    """The sum of `{field}` over the {records}."""
    return sum(field_of(record, "{field}", 0) for record in records)


def {status}_{records}(records: list[Record]) -> list[Record]:
    """The {records} whose status is `{status}`."""
    return [record for record in records if record.get("status") == "{status}"]


def {records}_by_{group}(records: list[Record]) -> dict[str, list[Record]]:
    """The {records} grouped by their `{group}`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {{}}
    for record in records:
        grouped.setdefault(str(record.get("{group}", "")), []).append(record)
    return grouped


def {status}_share(records: list[Record]) -> float:
    """The percentage of {records} that are `{status}`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len({status}_{records}(records)) / len(records), 1)


def {noun}_label(record: Record) -> str:
    """A one-line description of one of the {records}, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{{name}} ({{record.get('{group}', '-')}}): {{field_of(record, '{field}', 0)}} {field}"
'''


def main() -> None:
    """Write every generated module and package file."""
    written = 0
    for package, modules in AREAS.items():
        folder = REPO / "depot" / package
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "__init__.py").write_text(f'"""{package.capitalize()} of the depot."""\n')
        for module, (records, field, status, group) in modules.items():
            text = module_text(package, module, records, field, status, group)
            (folder / f"{module}.py").write_text(text)
            written += 1
    print(f"wrote {written} modules in {len(AREAS)} packages under {REPO}")


if __name__ == "__main__":
    main()
