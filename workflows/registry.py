"""Every workflow a worker runs, in one list (worker, tests and replay use the same)."""

from workflows.graph.workflow import GraphWorkflow
from workflows.ticket.implementation import ImplementationWorkflow
from workflows.ticket.workflow import TicketWorkflow

WORKFLOWS = [TicketWorkflow, ImplementationWorkflow, GraphWorkflow]
