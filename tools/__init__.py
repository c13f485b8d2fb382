"""Tool layer: registry, resilient executor, built-in customer-service tools, demo shop."""
