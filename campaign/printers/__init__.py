"""Printers of the campaign log: text, Markdown and JSON lines. They only format events."""
