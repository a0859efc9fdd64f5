"""Reading input files into the corpus model (and, later, writing reports). No Qt here."""
