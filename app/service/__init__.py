"""The HTTP service (`helpdesk serve`): JSON API, SSE progress, web chat page."""
