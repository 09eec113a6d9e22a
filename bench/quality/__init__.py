"""The quality benchmark: small tickets on small repositories, scored by hidden tests."""
