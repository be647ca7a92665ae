"""The web tests' table PIN, and the Origin the table's own page sends (the TestClient's own Host)."""

PIN = "482913"
ORIGIN = "http://testserver"
