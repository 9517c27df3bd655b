// linecount: an Oclgrind plugin that counts, per kernel launch and per line of the
// program's source, how many times work-items executed that line. srcsim's tests compare
// these counts with the block executions of its own profile mode (an independent check
// of block matching and annotation: Oclgrind runs the original kernel on its own
// interpreter, compiled by its own clang).
//
// What "executions of line L" means here: the number of times any work-item began an
// LLVM basic block that holds at least one instruction whose debug location is on L.
// A line is counted once per basic-block execution however many of its instructions the
// block holds, so a statement spread over several lines, or evaluated out of line order,
// still counts once. Calls are invisible to the count: the caller's block is still the
// one executing when the callee returns, so it is not begun again.
//
// This equals the number of executions of the source block the line belongs to only
// when the kernel is compiled WITHOUT optimisation (OCLGRIND_BUILD_OPTIONS=-cl-opt-disable):
// Oclgrind's default -Oz pipeline hoists, sinks and merges instructions across blocks
// (a load moved to a loop preheader keeps its line but runs once per loop), and inlines
// helpers. At -O0 clang gives every statement its own instructions in source order and
// opens a new basic block exactly at control flow (if/else, loops, ?:, && and ||,
// switch, return), which is where srcsim cuts its source blocks too. The plugin records
// whether optimisation was disabled in its output ("optimized": false).
//
// It also counts per source position, (line, column), with the same definition: the
// executions of position (L, C) are the number of times any work-item began an LLVM
// basic block holding at least one instruction whose debug location is (L, C). Several
// source blocks can share a line (a `for` header's init, condition and increment; the
// operands of `?:`, `&&` and `||`), hardly ever a position: at -O0 clang gives each
// expression's instructions the positions of its own tokens (a variable's load the
// variable's, an operator's instruction the operator's, an assigned or incremented
// variable's load and store the operator's, a call the callee's) and puts a conditionally
// evaluated operand, a loop condition and a `for` increment in basic blocks of their own.
// So the count at the position where a source block's code begins is that block's
// executions. Two exceptions: a constant operand has no instruction (clang turns
// `c ? 1 : 2` into a `select`, and the block of a lone constant operand holds only a
// branch); and clang puts the branches of a `?:` at the `?:`'s position in each of its
// blocks, and those of a loop at the loop keyword in its condition's and increment's
// blocks. The count of such a position adds up entries into different code, so the
// plugin lists every position whose instructions lie in more than one basic block, with
// the number of blocks ("split_positions"). Likewise every line whose instructions lie in
// more than one basic block ("split_lines"): besides the blocks srcsim cuts, clang gives
// a join's lone branch the position of the statement's last token (the `br` out of an
// `if` without `else` at the end of its condition's line, a loop's back edge at the loop
// keyword) and a `?:` inside a macro expansion its blocks on the line of the macro's use,
// so such a line's count adds up entries into different code too.
//
// Output: on every kernel end, the file named by SRCSIM_LINECOUNT_OUT is rewritten with
// all launches so far, in order:
//   {"schema": "srcsim.oclgrind-linecount/1", "optimized": false,
//    "launches": [{"kernel": "name", "global": [x, y, z], "local": [x, y, z],
//                  "lines": {"12": 4096, "13": 0, ...},
//                  "positions": {"12:3": 4096, "12:11": 4096, "13:5": 0, ...},
//                  "split_positions": {"15:3": 2, ...},
//                  "split_lines": {"15": 3, ...}}]}
// "lines" holds every line of the program's own source (not of headers) that has an
// instruction in the module, executed or not (0), so that a line without code can be
// told apart from a line that never ran; "positions" likewise every "line:column"
// (1-based, columns in bytes, as clang counts them).
//
// Build: `make` in this directory (see the Makefile); load with
// `oclgrind --plugins .../liblinecount.so ./host` or OCLGRIND_PLUGINS.

#include <oclgrind/Context.h>
#include <oclgrind/Kernel.h>
#include <oclgrind/KernelInvocation.h>
#include <oclgrind/Plugin.h>
#include <oclgrind/WorkGroup.h>
#include <oclgrind/WorkItem.h>

#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DebugLoc.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace
{

// Oclgrind hands clang the program's source as a remapped file of this name (see
// Program::build in Oclgrind); headers a program includes get other names.
const char* const MAIN_FILE = "input.cl";

struct Launch
{
  std::string kernel;
  oclgrind::Size3 global;
  oclgrind::Size3 local;
  std::map<unsigned, unsigned long long> lines;
  std::map<std::pair<unsigned, unsigned>, unsigned long long> positions;
  // Positions whose instructions lie in more than one basic block, with the number of
  // blocks: their count adds up entries into different code.
  std::map<std::pair<unsigned, unsigned>, unsigned> splitPositions;
  // Lines whose instructions lie in more than one basic block, with the number of
  // blocks.
  std::map<unsigned, unsigned> splitLines;
};

// The lines and the (line, column) positions of the program's source that one LLVM basic
// block has instructions on, each once.
struct BlockCode
{
  std::vector<unsigned> lines;
  std::vector<std::pair<unsigned, unsigned>> positions;
};

// One list per process: several contexts (each with its own plugin instance) append to
// it in launch order, and the file always holds all of them.
std::mutex g_launchesMutex;
std::vector<Launch> g_launches;

// Whether OCLGRIND_BUILD_OPTIONS turns optimisation off. Oclgrind appends these options
// after the program's own and reads them word by word, the last optimisation flag
// winning, so a trailing -cl-opt-disable holds whatever the program asked for.
bool optimisationDisabled()
{
  const char* options = std::getenv("OCLGRIND_BUILD_OPTIONS");
  bool disabled = false;
  std::istringstream words(options ? options : "");
  for (std::string word; words >> word;)
  {
    if (word == "-O0" || word == "-cl-opt-disable")
      disabled = true;
    else if (word.compare(0, 2, "-O") == 0)
      disabled = false;
  }
  return disabled;
}

void writeJson(const char* path, bool optimized)
{
  std::ofstream out(path, std::ios::trunc);
  if (!out)
  {
    std::fprintf(stderr, "linecount: cannot write %s: %s\n", path,
                 std::strerror(errno));
    return;
  }
  out << "{\"schema\": \"srcsim.oclgrind-linecount/1\", \"optimized\": "
      << (optimized ? "true" : "false") << ", \"launches\": [";
  for (size_t i = 0; i < g_launches.size(); i++)
  {
    const Launch& launch = g_launches[i];
    // Kernel names are C identifiers: nothing to escape.
    out << (i ? ",\n  " : "\n  ") << "{\"kernel\": \"" << launch.kernel
        << "\", \"global\": [" << launch.global.x << ", " << launch.global.y
        << ", " << launch.global.z << "], \"local\": [" << launch.local.x
        << ", " << launch.local.y << ", " << launch.local.z
        << "], \"lines\": {";
    bool first = true;
    for (const auto& line : launch.lines)
    {
      out << (first ? "" : ", ") << "\"" << line.first << "\": " << line.second;
      first = false;
    }
    out << "}, \"positions\": {";
    first = true;
    for (const auto& position : launch.positions)
    {
      out << (first ? "" : ", ") << "\"" << position.first.first << ":"
          << position.first.second << "\": " << position.second;
      first = false;
    }
    out << "}, \"split_positions\": {";
    first = true;
    for (const auto& position : launch.splitPositions)
    {
      out << (first ? "" : ", ") << "\"" << position.first.first << ":"
          << position.first.second << "\": " << position.second;
      first = false;
    }
    out << "}, \"split_lines\": {";
    first = true;
    for (const auto& line : launch.splitLines)
    {
      out << (first ? "" : ", ") << "\"" << line.first << "\": " << line.second;
      first = false;
    }
    out << "}}";
  }
  out << "\n]}\n";
}

class LineCount : public oclgrind::Plugin
{
public:
  LineCount(const oclgrind::Context* context)
    : oclgrind::Plugin(context), m_optimized(!optimisationDisabled())
  {
    if (m_optimized)
      std::fprintf(stderr,
                   "linecount: kernels are optimised, so line counts need not "
                   "match source blocks; set OCLGRIND_BUILD_OPTIONS=-cl-opt-disable\n");
  }

  // Worker threads only read m_blockCode (filled before they start) and count block
  // entries in their own thread-local map, merged under a lock when each work-group
  // completes; lines and positions are derived from the entries when the kernel ends.
  bool isThreadSafe() const override { return true; }

  void kernelBegin(const oclgrind::KernelInvocation* invocation) override
  {
    const oclgrind::Kernel* kernel = invocation->getKernel();
    const llvm::Module* module = kernel->getFunction()->getParent();
    m_blockCode.clear();
    m_blockEntries.clear();
    m_launch = Launch();
    m_launch.kernel = kernel->getName();
    m_launch.global = invocation->getGlobalSize();
    m_launch.local = invocation->getLocalSize();
    std::map<std::pair<unsigned, unsigned>, unsigned> blocksAt;
    std::map<unsigned, unsigned> blocksOn;
    for (const llvm::Function& function : *module)
    {
      for (const llvm::BasicBlock& block : function)
      {
        BlockCode code;
        for (const llvm::Instruction& instruction : block)
        {
          const llvm::DILocation* location = instruction.getDebugLoc().get();
          if (!location || location->getLine() == 0 ||
              location->getFilename() != MAIN_FILE)
            continue;
          unsigned line = location->getLine();
          std::pair<unsigned, unsigned> position(line, location->getColumn());
          if (std::find(code.lines.begin(), code.lines.end(), line) ==
              code.lines.end())
            code.lines.push_back(line);
          if (std::find(code.positions.begin(), code.positions.end(), position) ==
              code.positions.end())
            code.positions.push_back(position);
          m_launch.lines.emplace(line, 0);
          m_launch.positions.emplace(position, 0);
        }
        for (const auto& position : code.positions)
          blocksAt[position]++;
        for (unsigned line : code.lines)
          blocksOn[line]++;
        if (!code.lines.empty())
          m_blockCode.emplace(&block, std::move(code));
      }
    }
    for (const auto& position : blocksAt)
      if (position.second > 1)
        m_launch.splitPositions.insert(position);
    for (const auto& line : blocksOn)
      if (line.second > 1)
        m_launch.splitLines.insert(line);
  }

  void instructionExecuted(const oclgrind::WorkItem* workItem,
                           const llvm::Instruction* instruction,
                           const oclgrind::TypedValue& result) override
  {
    // Oclgrind reports every instruction it executes, PHI nodes included, so the first
    // instruction of a block is reported exactly once per entry into the block.
    const llvm::BasicBlock* block = instruction->getParent();
    if (instruction == &block->front())
      t_pendingEntries[block]++;
  }

  void workGroupComplete(const oclgrind::WorkGroup* workGroup) override
  {
    // A work-group runs start to finish on one worker thread, so its counts are all in
    // this thread's map.
    std::lock_guard<std::mutex> lock(m_mergeMutex);
    for (const auto& entries : t_pendingEntries)
      m_blockEntries[entries.first] += entries.second;
    t_pendingEntries.clear();
  }

  void kernelEnd(const oclgrind::KernelInvocation* invocation) override
  {
    for (const auto& entries : m_blockEntries)
    {
      auto code = m_blockCode.find(entries.first);
      if (code == m_blockCode.end())
        continue;
      for (unsigned line : code->second.lines)
        m_launch.lines[line] += entries.second;
      for (const auto& position : code->second.positions)
        m_launch.positions[position] += entries.second;
    }
    m_blockEntries.clear();
    std::lock_guard<std::mutex> lock(g_launchesMutex);
    g_launches.push_back(std::move(m_launch));
    m_launch = Launch();
    const char* path = std::getenv("SRCSIM_LINECOUNT_OUT");
    if (path)
      writeJson(path, m_optimized);
    else
      std::fprintf(stderr, "linecount: SRCSIM_LINECOUNT_OUT is not set: "
                           "counts of this launch are not written\n");
  }

private:
  bool m_optimized;
  std::unordered_map<const llvm::BasicBlock*, BlockCode> m_blockCode;
  std::unordered_map<const llvm::BasicBlock*, unsigned long long> m_blockEntries;
  std::mutex m_mergeMutex;
  Launch m_launch;
  static thread_local std::unordered_map<const llvm::BasicBlock*, unsigned long long>
    t_pendingEntries;
};

thread_local std::unordered_map<const llvm::BasicBlock*, unsigned long long>
  LineCount::t_pendingEntries;

std::map<const oclgrind::Context*, LineCount*> g_plugins;

} // namespace

extern "C"
{
  void initializePlugins(oclgrind::Context* context)
  {
    LineCount* plugin = new LineCount(context);
    g_plugins[context] = plugin;
    context->registerPlugin(plugin);
  }

  void releasePlugins(oclgrind::Context* context)
  {
    auto found = g_plugins.find(context);
    if (found == g_plugins.end())
      return;
    context->unregisterPlugin(found->second);
    delete found->second;
    g_plugins.erase(found);
  }
}
