"""The seats a table can have: this page's game against the computers, a seat at a
private table, a seat at a fair table (``web.table.seat`` is their interface)."""
