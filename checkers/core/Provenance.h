//===- Provenance.h - memory another agent sees, by where it came from -*- C++ -*-===//
//
// A ring in memory that another process maps (mmap(MAP_SHARED), shmat())
// or that a device reads (dma_alloc_coherent()) is shared whoever the other
// side is: the other half of the protocol is not in the file, but the
// allocation is. This is a TU-wide, flow-insensitive scan of assignments:
//
//   q = mmap(..., MAP_SHARED, fd, 0);            // q: mapped memory
//   sq->ring_ptr = q;                            // the field points into it
//   sq->ktail = sq->ring_ptr + p->sq_off.tail;   // ... and so does this one
//   ring->desc = dma_alloc_coherent(dev, ...);   // struct desc: device memory
//
// What it yields, for a location key:
//  - a field of a record that such memory holds (the pointee type of a
//    pointer that was assigned mapped memory, and the records embedded in
//    it: `struct shmq { unsigned head, tail; struct msg slot[64]; }`);
//  - the target of a pointer field or global that was assigned mapped
//    memory or an address computed from it (`*sq->ktail`).
// Functions that return such memory (a small wrapper around mmap()) are
// sources themselves. The allocators are ApiModel entries with a Sharing
// (`shared-memory:` and `device-memory:` in .seqlint.yaml).
//
//===----------------------------------------------------------------------===//
#ifndef SEQLINT_CORE_PROVENANCE_H
#define SEQLINT_CORE_PROVENANCE_H

#include "core/ApiModel.h"
#include "core/Events.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <optional>
#include <string>

namespace seqlint {

class SharedMemory {
public:
  struct Source {
    Sharing Kind = Sharing::None;
    std::string Api; // "mmap", "dma_alloc_coherent"
    std::string Fn;  // the function that called it
  };

  SharedMemory(clang::ASTContext &Ctx, const ApiModel &Model);

  /// Where the memory of location K came from, if another agent sees it.
  const Source *of(const LocationKey &K) const;
  /// Does ME access shared memory: a member of a record that lives there,
  /// or a pointer member that points into it?
  bool touches(const clang::MemberExpr *ME) const;
  bool empty() const { return Records.empty() && Pointers.empty(); }
  /// Is Field a member of a record that lives in device (DMA) memory?
  bool deviceRecordField(const clang::ValueDecl *Field) const;
  /// Is V a local variable assigned an address in memory from an allocator
  /// that shares it with another process or the kernel (`ppd = (struct
  /// tpacket2_hdr *)rd[i].iov_base`, where iov_base points into an mmap()ed
  /// ring): the record it points to is laid over the mapping itself, not
  /// only of a type found there.
  bool holdsMapping(const clang::VarDecl *V) const { return MappedLocals.contains(V); }
  /// Is F a field of a record of the kernel's user-space ABI that the file
  /// does not keep in its own memory (user space only): the kernel is the
  /// other side, whatever mapped it (AF_PACKET's frames, mmap()ed from a
  /// socket)?
  bool kernelRecordField(const clang::FieldDecl *F) const { return uapiSource(F); }
  /// For messages: "memory from mmap() in 'q_open'".
  static std::string describe(const Source &S);
  /// ... for field F of that memory: a structure of the kernel's ABI in a
  /// mapping is shared with the kernel ("memory from mmap() in 'setup',
  /// a structure of the kernel's user-space ABI ('if_packet.h'): the
  /// kernel reads and writes it").
  std::string describe(const Source &S, const clang::FieldDecl *F) const;

private:
  class Walker;
  void addRecord(clang::QualType Pointee, const Source &S, unsigned Depth = 0);
  /// A small function outside the main file that returns shared memory
  /// (a wrapper around mmap()), looked into at its calls and remembered.
  std::optional<Source> wrapperSource(const clang::FunctionDecl *F, unsigned Depth);

  clang::ASTContext &Ctx;
  const ApiModel &Model;
  llvm::DenseMap<const clang::RecordDecl *, Source> Records;
  llvm::DenseMap<const clang::ValueDecl *, Source> Pointers; // fields, globals
  llvm::DenseMap<const clang::FunctionDecl *, Source> Returns;
  llvm::DenseSet<const clang::VarDecl *> MappedLocals;
  llvm::DenseMap<const clang::FunctionDecl *, std::optional<Source>> Wrappers;
  /// A field of a record of the kernel's user-space ABI, in user space.
  const Source *uapiSource(const clang::FieldDecl *F) const;
  /// Records of the kernel's user-space ABI, as looked up (user space only).
  bool UserSpace = false;
  /// (A std::map: of() hands out pointers into it while it grows.)
  mutable std::map<const clang::RecordDecl *, std::optional<Source>> Uapi;
  /// Records the main file keeps in its own memory: an object of the type
  /// (a variable, a parameter or a member by value), or a private
  /// allocator's result converted to a pointer to it; computed when first
  /// needed.
  mutable std::optional<llvm::DenseSet<const clang::RecordDecl *>> Private;
  bool privateRecord(const clang::RecordDecl *RD) const;
};

} // namespace seqlint

#endif
