"""Resilience core: failure taxonomy, retry budget, breakers, last-good cache, ladder, chaos.

Pure and fast: no LangGraph or LangChain import. Time and randomness are injected.
"""
