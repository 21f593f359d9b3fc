//===- ChangedBits.h - which bits of a word a write can change -*- C++ -*-===//
//
// A flags word is often shared by two protocols: a seqcount's write sections
// publish one field of it (an entry's type, changed with its object), and a
// lock serialises updates of other constant bits (list membership, marks).
// Whether an update outside the sections can tear what a reader validates
// depends on the bits it changes, not on the word it writes.
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_CHANGEDBITS_H
#define SEQLINT_CORE_CHANGEDBITS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include <cstdint>
#include <optional>

namespace seqlint {

/// The bits of Loc (a field or a global, named as lvalueIdentity() does)
/// that the write Write, in function In, can change, when they are bounded:
///   - `x |= C`, `x ^= C`, `x &= ~C` with C a constant: C;
///   - a store of a value built from x's old value with constant masks,
///     directly or through a local (`w = READ_ONCE(x); w &= ~M; w |= C;
///     WRITE_ONCE(x, w)`): the bits those masks touch;
///   - a masked field update `(x & ~M) | v` with v unknown: M, by the
///     idiom's contract that v is a value of the field M.
/// std::nullopt: any bit (a whole-word store, an unknown operand, an
/// atomic). The mask is limited to Loc's width.
/// When In is a helper seen through at the call Site (in function SiteIn),
/// a parameter of In stands for Site's argument, worked out in SiteIn
/// (`set_word(n, w)` whose body stores its w).
std::optional<uint64_t> changedBits(const clang::Stmt *Write,
                                    const clang::FunctionDecl *In,
                                    const clang::ValueDecl *Loc,
                                    const clang::CallExpr *Site = nullptr,
                                    const clang::FunctionDecl *SiteIn = nullptr);

} // namespace seqlint

#endif
