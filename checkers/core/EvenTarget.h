//===- EvenTarget.h - a count taken only when it equals an even value -*- C++ -*-===//
//
// A reader that waits for one particular count (a ring slot stamped 2*lap+2
// when full) proceeds only when the count it loaded equals that value. An
// even target excludes an odd count as surely as a test of the low bit, so
// such a reader checks the odd count by protocol.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_EVENTARGET_H
#define SEQLINT_CORE_EVENTARGET_H

#include "core/Classifier.h"

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace seqlint {

/// E is even whatever its inputs: an even constant, a product with an even
/// factor (`2 * x`), `x << k` with a constant k >= 1, `x & m` with m's low
/// bit clear (`x & ~1`), a sum or difference of even values, a conditional
/// with even arms, or a local of FD whose every assignment is such a value
/// and whose address is never taken.
bool isKnownEven(const clang::Expr *E, const clang::FunctionDecl *FD,
                 clang::ASTContext &Ctx, unsigned Depth = 0);

/// Every path to a recheck of Begin (a ReadRetry on Key validating Begin)
/// has found Begin equal to a known-even value since Begin was last
/// assigned: `if (seq != 2 * lap + 2) return;`, `if (seq == want) {...}`,
/// or `seq < want` and `seq > want` both leaving, with `want` an even local
/// or constant. An odd count then never validates. False when there is no
/// such recheck.
bool validatedOnlyWhenEven(const FunctionTrace &T, int Key,
                           const clang::VarDecl *Begin, clang::ASTContext &Ctx);

} // namespace seqlint

#endif
