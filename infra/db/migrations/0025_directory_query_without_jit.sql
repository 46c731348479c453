-- directory_query (0005, 0016) without JIT compilation (issue 31). Its plan is costed for ten
-- words of ten lexemes each, and the trigram look-up for 1% of the lexicon per lexeme: with a
-- million lexicon words that estimate passes jit_above_cost and jit_optimize_above_cost, so every
-- call compiled and optimised its expressions with LLVM first, 0.3–1 s, for a query that then ran
-- in about a millisecond. The estimate is wrong in the direction that matters (a search has a few
-- words, and the trigram index finds a handful of candidates), so JIT can never pay off here.
-- Only the setting changes: the body, and so every answer, stays exactly what 0016 made it.
ALTER FUNCTION directory_query(text[], boolean) SET jit = off;
