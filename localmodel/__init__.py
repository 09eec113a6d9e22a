"""The local model: a llama.cpp server and a small open coder model, installed on request."""
