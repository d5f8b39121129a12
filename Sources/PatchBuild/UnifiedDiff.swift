/// Line-based unified diffs for `prepare --dry-run`: what would change, in the form `patch -p0` and
/// code review tools read.
public enum UnifiedDiff {
    /// The diff of `old` (nil: file is created) to `new` (nil: file is deleted), with 3 lines of context.
    public static func make(path: String, old: [UInt8]?, new: [UInt8]?) -> String {
        let oldLines = lines(old ?? [])
        let newLines = lines(new ?? [])
        let operations = edit(oldLines, newLines)
        var output = "--- \(old == nil ? "/dev/null" : "a/" + path)\n+++ \(new == nil ? "/dev/null" : "b/" + path)\n"
        for hunk in hunks(operations, context: 3) {
            output += hunk
        }
        return output
    }

    private enum Operation: Equatable {
        case keep(String), remove(String), add(String)
    }

    private static func lines(_ bytes: [UInt8]) -> [String] {
        guard !bytes.isEmpty else { return [] }
        var result = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if bytes.last == UInt8(ascii: "\n") { result.removeLast() } else { result[result.count - 1] += "\n\\ No newline at end of file" }
        return result
    }

    /// Trims the common prefix and suffix, then aligns the middle by longest common subsequence.
    /// Prepare's edits are small, so the middle is small; a huge middle is shown as one replacement
    /// rather than spending quadratic memory on it.
    private static func edit(_ old: [String], _ new: [String]) -> [Operation] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let oldMiddle = Array(old[prefix..<(old.count - suffix)])
        let newMiddle = Array(new[prefix..<(new.count - suffix)])
        var operations = old[..<prefix].map(Operation.keep)
        if oldMiddle.count * newMiddle.count > 4_000_000 {
            operations += oldMiddle.map(Operation.remove) + newMiddle.map(Operation.add)
        } else {
            operations += lcsOperations(oldMiddle, newMiddle)
        }
        operations += old[(old.count - suffix)...].map(Operation.keep)
        return operations
    }

    private static func lcsOperations(_ old: [String], _ new: [String]) -> [Operation] {
        let columns = new.count + 1
        var table = [Int](repeating: 0, count: (old.count + 1) * columns)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                table[i * columns + j] = old[i] == new[j] ? table[(i + 1) * columns + j + 1] + 1
                    : max(table[(i + 1) * columns + j], table[i * columns + j + 1])
            }
        }
        var operations: [Operation] = []
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                operations.append(.keep(old[i])); i += 1; j += 1
            } else if i < old.count, j == new.count || table[(i + 1) * columns + j] >= table[i * columns + j + 1] {
                // Removals before additions, as `diff -u` shows a replaced line.
                operations.append(.remove(old[i])); i += 1
            } else {
                operations.append(.add(new[j])); j += 1
            }
        }
        return operations
    }

    private static func hunks(_ operations: [Operation], context: Int) -> [String] {
        let changed = operations.indices.filter { if case .keep = operations[$0] { return false } else { return true } }
        guard !changed.isEmpty else { return [] }
        // Group changes whose context windows touch.
        var groups: [ClosedRange<Int>] = []
        for index in changed {
            let window = max(0, index - context)...min(operations.count - 1, index + context)
            if let last = groups.last, window.lowerBound <= last.upperBound + 1 {
                groups[groups.count - 1] = last.lowerBound...max(last.upperBound, window.upperBound)
            } else {
                groups.append(window)
            }
        }
        var result: [String] = []
        for group in groups {
            var oldStart = 1, newStart = 1
            for operation in operations[..<group.lowerBound] {
                switch operation {
                case .keep: oldStart += 1; newStart += 1
                case .remove: oldStart += 1
                case .add: newStart += 1
                }
            }
            var oldCount = 0, newCount = 0
            var body = ""
            for operation in operations[group] {
                switch operation {
                case let .keep(line): body += " \(line)\n"; oldCount += 1; newCount += 1
                case let .remove(line): body += "-\(line)\n"; oldCount += 1
                case let .add(line): body += "+\(line)\n"; newCount += 1
                }
            }
            // An empty side's start is the line before it (0 for an empty file), as `diff -u` writes.
            let oldHeader = oldCount == 0 ? "\(oldStart - 1),0" : "\(oldStart),\(oldCount)"
            let newHeader = newCount == 0 ? "\(newStart - 1),0" : "\(newStart),\(newCount)"
            result.append("@@ -\(oldHeader) +\(newHeader) @@\n" + body)
        }
        return result
    }
}
