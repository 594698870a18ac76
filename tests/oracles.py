"""Textbook oracles shared by the kernel tests of both backends."""


def lcs_table(a, b):
    """The O(mn) LCS dynamic-programming table (rows over ``a``)."""
    t = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            t[i][j] = t[i - 1][j - 1] + 1 if a[i - 1] == b[j - 1] else max(t[i - 1][j], t[i][j - 1])
    return t


def lcs_indices(ref, can):
    """rouge-score's ``_backtrack_norec`` tie-breaking, written from its definition, on the table."""
    t = lcs_table(ref, can)
    i, j, out = len(ref), len(can), []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            out.insert(0, i - 1)
            i, j = i - 1, j - 1
        elif t[i][j - 1] > t[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return out
