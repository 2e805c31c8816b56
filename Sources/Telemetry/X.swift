enum X {}
