"""helpdesk package."""
