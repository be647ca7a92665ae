"""burncycle-table: the table service around the burncycle rules engine."""
