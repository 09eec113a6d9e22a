"""Routes for tests and the demo under /_emulator: health, request log, state, faults, webhooks."""

from typing import Any

from fastapi import APIRouter, HTTPException

from emulators.jira.webhooks import JiraWebhooks
from emulators.state import EmulatorState, RequestLog
from faults.injector import Fault, FaultConfig, FaultInjector


def create_control_router(
    state: EmulatorState, log: RequestLog, faults: FaultInjector, webhooks: JiraWebhooks
) -> APIRouter:
    """The admin routes; they are never logged and never faulted."""
    router = APIRouter(prefix="/_emulator", tags=["emulator"])

    @router.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    @router.get("/requests")
    def list_requests() -> list[dict[str, Any]]:
        return log.entries

    @router.delete("/requests", status_code=204)
    def clear_requests() -> None:
        log.clear()

    @router.get("/state")
    def get_state() -> dict[str, Any]:
        return state.data

    @router.get("/faults")
    def list_faults() -> FaultConfig:
        return FaultConfig(seed=faults.seed, faults=faults.faults)

    @router.post("/faults", status_code=201)
    def add_fault(fault: Fault) -> Fault:
        faults.faults.append(fault)
        return fault

    @router.put("/faults")
    def replace_faults(config: FaultConfig) -> FaultConfig:
        """Replace every fault and the seed at once (the shape of a faults file)."""
        faults.faults[:] = config.faults
        faults.seed = config.seed
        return config

    @router.delete("/faults", status_code=204)
    def clear_faults() -> None:
        faults.faults.clear()

    @router.get("/webhooks")
    def list_deliveries() -> dict[str, Any]:
        """Where Jira webhooks go and every delivery so far, with each attempt's answer."""
        return {"url": webhooks.url, "deliveries": webhooks.deliveries}

    @router.post("/webhooks/{delivery_id}/redeliver", status_code=202)
    async def redeliver(delivery_id: str) -> dict[str, Any]:
        """Send a delivery again, same identifier and body, as Jira does after a failure."""
        delivery = webhooks.redeliver(delivery_id)
        if delivery is None:
            raise HTTPException(404, f"no delivery {delivery_id}")
        return {"id": delivery["id"], "state": delivery["state"]}

    return router
