"""A small calculator library with a command-line interface."""

from calc.operations import add, divide, multiply, subtract

__all__ = ["add", "divide", "multiply", "subtract"]
