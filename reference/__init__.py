"""The chapter's mathematics in plain NumPy, one module per concept: what the core's tests
compare it with (each module's fixture(), written by tests/fixtures/make.py) and what each
figure's "Copy as NumPy" program inlines. See README.md.
"""
