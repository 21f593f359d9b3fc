//===- Config.cpp ---------------------------------------------------------===//
#include "core/Config.h"
#include "core/Events.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace seqlint {

namespace {

struct RoleSpec {
  const char *Name;
  ApiEntry Entry;
};

ApiEntry make(Role R, BarrierKind K = BarrierKind::Full, Order O = Order::Once,
              bool Pointer = true) {
  ApiEntry E{R, Family::Libc};
  E.Barrier = K;
  E.Ord = O;
  E.ArgIsPointer = Pointer;
  if (R == Role::ReadRetry)
    E.ValueArg = 1;
  return E;
}

/// A lock that takes the shared side (Shared), or may fail (Try).
ApiEntry lock(bool Shared, bool Try) {
  ApiEntry E = make(Role::Lock);
  E.SharedLock = Shared;
  E.TryLock = Try;
  return E;
}

/// A call whose function argument runs as an entry point of kind K
/// (pthread_create(): a thread), or a member such a function is stored in.
ApiEntry starter(EntryKind K) {
  ApiEntry E = make(Role::SideEffect);
  E.Starts = K;
  return E;
}

/// A bit operation on the word argument 1 points to: a test, or an atomic
/// or non-atomic change.
ApiEntry bitOp(bool Modifies, bool Atomic) {
  ApiEntry E = make(Role::SideEffect);
  BitOp Op;
  Op.Modifies = Modifies;
  Op.Atomic = Atomic;
  E.Bit = Op;
  return E;
}

/// An allocator of memory no other thread reaches yet (a project's pool).
ApiEntry allocator() {
  ApiEntry E = make(Role::Pure);
  E.Allocates = true;
  return E;
}

/// An allocator of memory another process or a device sees.
ApiEntry shared(Sharing S) {
  ApiEntry E = make(Role::SideEffect);
  E.Shares = S;
  return E;
}

const std::vector<RoleSpec> &roles() {
  static const std::vector<RoleSpec> R = {
      {"write-barrier", make(Role::Barrier, BarrierKind::Write)},
      {"read-barrier", make(Role::Barrier, BarrierKind::Read)},
      {"full-barrier", make(Role::Barrier, BarrierKind::Full)},
      {"load-acquire", make(Role::Load, BarrierKind::Full, Order::Acquire, true)},
      {"store-release", make(Role::Store, BarrierKind::Full, Order::Release, true)},
      {"once-load", make(Role::Load, BarrierKind::Full, Order::Once, false)},
      {"once-store", make(Role::Store, BarrierKind::Full, Order::Once, false)},
      {"read-begin", make(Role::ReadBegin, BarrierKind::Full, Order::Acquire)},
      {"read-retry", make(Role::ReadRetry)},
      {"write-begin", make(Role::WriteBegin)},
      {"write-end", make(Role::WriteEnd)},
      {"lock", make(Role::Lock)},
      {"read-lock", lock(/*Shared=*/true, /*Try=*/false)},
      {"trylock", lock(/*Shared=*/false, /*Try=*/true)},
      {"read-trylock", lock(/*Shared=*/true, /*Try=*/true)},
      {"unlock", make(Role::Unlock)},
      {"pure", make(Role::Pure)},
      {"thread-create", starter(EntryKind::Thread)},
      {"hardirq-entry", starter(EntryKind::Irq)},
      {"softirq-entry", starter(EntryKind::SoftIrq)},
      {"process-entry", starter(EntryKind::Process)},
      {"allocator", allocator()},
      {"bit-test", bitOp(/*Modifies=*/false, /*Atomic=*/true)},
      {"bit-modify", bitOp(/*Modifies=*/true, /*Atomic=*/true)},
      {"bit-modify-nonatomic", bitOp(/*Modifies=*/true, /*Atomic=*/false)},
      {"shared-memory", shared(Sharing::Process)},
      {"device-memory", shared(Sharing::Device)},
  };
  return R;
}

/// The kinds of AsmBarriers: what an instruction orders.
struct AsmSpec {
  const char *Name;
  unsigned Bits;
};
const AsmSpec AsmKinds[] = {
    {"full-barrier", OrdFull},
    {"write-barrier", OrdSS},
    {"read-barrier", OrdLL},
    {"acquire-barrier", OrdLL | OrdLS},
    {"release-barrier", OrdLS | OrdSS},
    {"compiler-barrier", 0},
};

class Parser {
public:
  Parser(StringRef Path, std::unique_ptr<MemoryBuffer> Buf, Config &Out)
      : Path(Path.str()), Out(Out) {
    SM.AddNewSourceBuffer(std::move(Buf), SMLoc());
  }

  bool parse(std::string &Error) {
    std::string Diag;
    raw_string_ostream OS(Diag);
    yaml::Stream S(SM.getMemoryBuffer(SM.getMainFileID())->getBuffer(), SM, false);
    SM.setDiagHandler(
        [](const SMDiagnostic &D, void *Ctx) {
          auto *P = static_cast<Parser *>(Ctx);
          if (P->FirstError.empty())
            P->FirstError = format(D);
        },
        this);
    auto It = S.begin();
    if (It == S.end() || !It->getRoot()) {
      // An empty file configures nothing.
      return FirstError.empty() ? true : (Error = FirstError, false);
    }
    yaml::Node *Root = It->getRoot();
    if (!FirstError.empty()) {
      Error = FirstError;
      return false;
    }
    if (isa<yaml::NullNode>(Root))
      return true;
    auto *Map = dyn_cast<yaml::MappingNode>(Root);
    if (!Map)
      return fail(Root, "expected a mapping with 'Checks', 'APIs' or 'AsmBarriers' keys", Error);
    for (yaml::KeyValueNode &KV : *Map) {
      std::string Key;
      if (!scalar(KV.getKey(), Key, "a key", Error))
        return false;
      yaml::Node *Value = KV.getValue();
      if (!FirstError.empty())
        return (Error = FirstError, false);
      if (Key == "Checks") {
        if (!scalar(Value, Out.Checks, "a string of check globs", Error))
          return false;
      } else if (Key == "APIs") {
        if (!apis(Value, Error))
          return false;
      } else if (Key == "AsmBarriers") {
        if (!asmBarriers(Value, Error))
          return false;
      } else {
        return fail(KV.getKey(),
                    "unknown key '" + Key +
                        "'; expected 'Checks', 'APIs' or 'AsmBarriers'",
                    Error);
      }
    }
    if (!FirstError.empty())
      return (Error = FirstError, false);
    return true;
  }

  std::string FirstError;

private:
  static std::string format(const SMDiagnostic &D) {
    std::string S;
    raw_string_ostream OS(S);
    OS << D.getFilename() << ":" << D.getLineNo() << ":" << (D.getColumnNo() + 1)
       << ": " << D.getMessage();
    return S;
  }

  bool fail(yaml::Node *N, const Twine &Msg, std::string &Error) {
    SMLoc L = N ? N->getSourceRange().Start : SMLoc();
    auto [Line, Col] = SM.getLineAndColumn(L);
    Error = (Path + ":" + Twine(Line) + ":" + Twine(Col) + ": " + Msg).str();
    return false;
  }

  bool scalar(yaml::Node *N, std::string &Out, StringRef What, std::string &Error) {
    auto *S = dyn_cast_or_null<yaml::ScalarNode>(N);
    if (!S)
      return fail(N, "expected " + What, Error);
    SmallString<64> Storage;
    Out = S->getValue(Storage).str();
    return true;
  }

  bool apis(yaml::Node *N, std::string &Error) {
    auto *Map = dyn_cast_or_null<yaml::MappingNode>(N);
    if (!Map)
      return fail(N, "expected a mapping from roles to lists of names, e.g. "
                     "'write-barrier: [my_wmb]'",
                  Error);
    for (yaml::KeyValueNode &KV : *Map) {
      std::string RoleName;
      if (!scalar(KV.getKey(), RoleName, "a role", Error))
        return false;
      const RoleSpec *Spec = nullptr;
      for (const RoleSpec &R : roles())
        if (RoleName == R.Name)
          Spec = &R;
      if (!Spec) {
        std::string Valid;
        for (StringRef R : configRoleNames())
          Valid += (Valid.empty() ? "" : ", ") + R.str();
        return fail(KV.getKey(), "unknown role '" + RoleName + "'; valid roles: " + Valid,
                    Error);
      }
      yaml::Node *V = KV.getValue();
      if (!FirstError.empty())
        return (Error = FirstError, false);
      std::vector<Item> Names;
      if (auto *Seq = dyn_cast_or_null<yaml::SequenceNode>(V)) {
        for (yaml::Node &N : *Seq)
          if (!item(&N, *Spec, Names, Error))
            return false;
      } else if (!item(V, *Spec, Names, Error)) {
        return false;
      }
      if (!FirstError.empty())
        return (Error = FirstError, false);
      for (const Item &I : Names) {
        const std::string &Name = I.Name;
        // An entry point is registered by a call, or by storing the
        // function into a member: `struct_name.field`.
        auto [Record, Field] = StringRef(Name).split('.');
        if (Spec->Entry.Starts && !Field.empty()) {
          if (!isCIdentifier(Record) || !isCIdentifier(Field))
            return fail(I.Where,
                        "'" + Name +
                            "' is neither a C identifier nor 'record.field'",
                        Error);
        } else if (!isCIdentifier(Name)) {
          return fail(I.Where, "'" + Name + "' is not a C identifier", Error);
        }
        ApiEntry E = Spec->Entry;
        if (I.Arg >= 0 && E.Bit)
          E.Bit->WordArg = I.Arg;
        else if (I.Arg >= 0)
          E.CounterArg = I.Arg;
        Out.Apis.push_back({Name, E});
      }
    }
    return true;
  }

  /// AsmBarriers: a mapping from what an instruction orders to the asm
  /// spellings that order it (`write-barrier: ["dmb oshst"]`).
  bool asmBarriers(yaml::Node *N, std::string &Error) {
    auto *Map = dyn_cast_or_null<yaml::MappingNode>(N);
    if (!Map)
      return fail(N, "expected a mapping from barrier kinds to lists of asm "
                     "spellings, e.g. 'write-barrier: [\"dmb oshst\"]'",
                  Error);
    for (yaml::KeyValueNode &KV : *Map) {
      std::string Kind;
      if (!scalar(KV.getKey(), Kind, "a barrier kind", Error))
        return false;
      const AsmSpec *Spec = nullptr;
      std::string Valid;
      for (const AsmSpec &A : AsmKinds) {
        if (Kind == A.Name)
          Spec = &A;
        Valid += (Valid.empty() ? "" : ", ") + std::string(A.Name);
      }
      if (!Spec)
        return fail(KV.getKey(),
                    "unknown barrier kind '" + Kind + "'; valid kinds: " + Valid,
                    Error);
      yaml::Node *V = KV.getValue();
      if (!FirstError.empty())
        return (Error = FirstError, false);
      std::vector<yaml::Node *> Items;
      if (auto *Seq = dyn_cast_or_null<yaml::SequenceNode>(V))
        for (yaml::Node &I : *Seq)
          Items.push_back(&I);
      else
        Items.push_back(V);
      for (yaml::Node *I : Items) {
        std::string Spelling;
        if (!scalar(I, Spelling, "an asm spelling, e.g. \"dmb oshst\"", Error))
          return false;
        if (StringRef(Spelling).trim().empty())
          return fail(I, "an asm spelling must not be empty", Error);
        Out.AsmBarriers.push_back({Spelling, Spec->Bits});
      }
      if (!FirstError.empty())
        return (Error = FirstError, false);
    }
    return true;
  }

  /// One name of a role: `my_lock`, or `{name: my_put_and_lock, arg: 1}`
  /// when the object it acts on (the lock, the location) is not its first
  /// argument.
  struct Item {
    std::string Name;
    yaml::Node *Where = nullptr;
    int Arg = -1; // -1: the role's default
  };
  bool item(yaml::Node *N, const RoleSpec &Spec, std::vector<Item> &Out,
            std::string &Error) {
    Item I;
    I.Where = N;
    auto *Map = dyn_cast_or_null<yaml::MappingNode>(N);
    if (!Map) {
      if (!scalar(N, I.Name, "a name, or {name: ..., arg: N}", Error))
        return false;
      Out.push_back(std::move(I));
      return true;
    }
    for (yaml::KeyValueNode &KV : *Map) {
      std::string Key, Value;
      if (!scalar(KV.getKey(), Key, "a key", Error) ||
          !scalar(KV.getValue(), Value, "a value", Error))
        return false;
      if (Key == "name") {
        I.Name = Value;
      } else if (Key == "arg") {
        unsigned A;
        if (StringRef(Value).getAsInteger(10, A) || A > 7)
          return fail(KV.getValue(), "'arg' must be an argument index from 0 to 7, not '" +
                                         Value + "'",
                      Error);
        if (!takesObject(Spec.Entry.R) && !Spec.Entry.Bit)
          return fail(KV.getKey(), "role '" + std::string(Spec.Name) +
                                       "' acts on no argument; 'arg' is for locks, "
                                       "accesses, bit operations and section APIs",
                      Error);
        I.Arg = A;
      } else {
        return fail(KV.getKey(), "unknown key '" + Key + "'; expected 'name' or 'arg'",
                    Error);
      }
    }
    if (I.Name.empty())
      return fail(N, "expected 'name' in {name: ..., arg: N}", Error);
    Out.push_back(std::move(I));
    return true;
  }
  /// A role whose API acts on one argument's object.
  static bool takesObject(Role R) {
    switch (R) {
    case Role::Lock:
    case Role::Unlock:
    case Role::Load:
    case Role::Store:
    case Role::RMW:
    case Role::ReadBegin:
    case Role::ReadRetry:
    case Role::WriteBegin:
    case Role::WriteEnd:
      return true;
    default:
      return false;
    }
  }

  std::string Path;
  Config &Out;
  SourceMgr SM;
};

} // namespace

std::vector<StringRef> configRoleNames() {
  std::vector<StringRef> Names;
  for (const RoleSpec &R : roles())
    Names.push_back(R.Name);
  return Names;
}

ApiModel Config::model() const {
  ApiModel M = getApiModel();
  for (const auto &[Name, E] : Apis)
    M.addUser(Name, E);
  for (const auto &[Spelling, Bits] : AsmBarriers)
    M.addUserAsm(Spelling, Bits);
  return M;
}

bool loadConfig(StringRef Path, Config &Out, std::string &Error) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf) {
    Error = (Path + ": cannot read seqlint config: " + Buf.getError().message()).str();
    return false;
  }
  // Name the buffer after the file so YAML errors say where they are.
  auto Named = MemoryBuffer::getMemBufferCopy((*Buf)->getBuffer(), Path);
  Out.Path = Path.str();
  Parser P(Path, std::move(Named), Out);
  return P.parse(Error);
}

std::string findConfig(StringRef SourceFile) {
  SmallString<256> Dir(SourceFile);
  sys::fs::make_absolute(Dir);
  sys::path::remove_filename(Dir);
  while (!Dir.empty()) {
    SmallString<256> Candidate(Dir);
    sys::path::append(Candidate, ".seqlint.yaml");
    if (sys::fs::exists(Candidate))
      return std::string(Candidate);
    StringRef Parent = sys::path::parent_path(Dir);
    if (Parent == Dir)
      break;
    Dir.truncate(Parent.size()); // Parent points into Dir: no self-assign
  }
  return "";
}

} // namespace seqlint
