//===- SeqcountReadSideEffectCheck.cpp ------------------------------------===//
//
// seqcount-read-side-effect: a read section runs again on every retry and
// may see torn data, so it must not act on the world: no stores to shared
// memory, no read-modify-writes outside locals, no calls that log, allocate,
// free, lock or write globals. Stores to locals and to the caller's
// out-parameters are fine: the last iteration overwrites them.
//
//===----------------------------------------------------------------------===//
#include "Check.h"

#include "clang/AST/Decl.h"

namespace seqlint {
namespace {

class SeqcountReadSideEffectCheck : public Check {
public:
  SeqcountReadSideEffectCheck() : Check("seqcount-read-side-effect") {}

  void readSideEffect(const FunctionTrace &T, int Counter, const Event &Begin,
                      const Event &E) override {
    std::string C = name(T, Counter);
    std::string What;
    switch (E.Kind) {
    case EventKind::Store:
      What = "store to shared '" + name(T, E.Key) + "'";
      break;
    case EventKind::RMW:
      if (E.Key >= 0 && T.key(E.Key).Storage == LocationKey::Param &&
          !sameObject(T, E.Key, Counter)) {
        accumulation(T, Counter, Begin, E, "the caller's '" + name(T, E.Key) + "'");
        return;
      }
      What = "read-modify-write of shared '" + name(T, E.Key) + "'";
      break;
    case EventKind::LocalUpdate:
      accumulation(T, Counter, Begin, E,
                   "'" + E.Var->getNameAsString() + "', which keeps its value across the retry,");
      return;
    case EventKind::Lock:
    case EventKind::Unlock:
      What = "call to " + spelling(E);
      break;
    default:
      if (!E.ApiName.empty())
        What = "call to " + spelling(E);
      else if (E.Callee)
        What = "call to '" + E.Callee->getNameAsString() + "', which has side effects,";
      else
        What = "call with side effects";
      break;
    }
    Finding F = make(E, What + " inside the read section of '" + C +
                                "': it repeats on every retry and may act on torn "
                                "data; move it after the section is validated");
    F.Notes.push_back({Begin.Loc, "the read section begins here"});
    viaNote(F, Begin);
    emit(F);
  }

private:
  static bool sameObject(const FunctionTrace &T, int A, int B) {
    return T.key(A).Base && T.key(A).Base == T.key(B).Base;
  }

  /// An accumulation whose target outlives a failed attempt: every retry
  /// adds the torn values of the attempts before it.
  void accumulation(const FunctionTrace &T, int Counter, const Event &Begin,
                    const Event &E, const std::string &Target) {
    Finding F = make(E, "accumulation into " + Target +
                                " inside the read section of '" + name(T, Counter) +
                                "': a retried attempt adds its values again; read "
                                "into locals inside the loop and accumulate after it");
    F.Notes.push_back({Begin.Loc, "the read section begins here"});
    viaNote(F, Begin);
    emit(F);
  }
};

} // namespace

std::unique_ptr<Check> createSeqcountReadSideEffectCheck() {
  return std::make_unique<SeqcountReadSideEffectCheck>();
}

} // namespace seqlint
