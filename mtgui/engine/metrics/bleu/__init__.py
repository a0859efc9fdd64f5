"""BLEU, M-BLEU and NIST: the metrics of n-gram matches against the references, as
mteval-v13a and sacreBLEU compute them.
"""
