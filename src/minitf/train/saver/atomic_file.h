// Writing a file so that a crash never leaves half of it.
//
// A process can die at any instruction, and a machine can lose power with
// bytes still in its page cache. A reader must then find either the old file
// or the whole new one, never a torn mix: that is what lets a Saver killed in
// the middle of a save leave the previous checkpoint restorable. The recipe
// is POSIX's: write a temporary file beside the target, fsync it, rename it
// over the target (rename is atomic within a file system), and fsync the
// folder so the rename itself is on disk.
//
//   TF_RETURN_IF_ERROR(tf::train::WriteFileAtomically("/tmp/run/f", bytes));
#pragma once

#include <string>
#include <string_view>

#include "minitf/tensor/status.h"

namespace minitf::train {

/// Writes `bytes` to `path` so that a reader (or a crash) sees either the
/// old file or the whole new one: the bytes go to `PATH.tmpPID_N`, are
/// fsynced, and the temporary file is renamed over `path`; the folder is
/// fsynced so the rename itself survives a power cut. On failure the
/// temporary file is removed and `path` is untouched. NotFound for a missing
/// folder, PermissionDenied for a locked one, Unknown otherwise, each
/// naming the file.
Status WriteFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace minitf::train
