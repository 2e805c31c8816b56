import Foundation

// libFuzzer's entry points. One binary holds every target; `HANDOFF_FUZZ_TARGET` picks the one to run
// (`HANDOFF_FUZZ_TARGET=list` prints them with their `-max_len` and exits). libFuzzer calls one input at a time on
// one thread, so the chosen target is a plain global set once before the first input.

nonisolated(unsafe) private var selected: FuzzTarget?

/// Called by libFuzzer once, before it reads its flags: picks the target named by `HANDOFF_FUZZ_TARGET`.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
    let name = ProcessInfo.processInfo.environment["HANDOFF_FUZZ_TARGET"] ?? ""
    if name == "list" {
        for target in FuzzTarget.all { print("\(target.name) \(target.maxLength)") }
        exit(0)
    }
    guard let target = FuzzTarget.all.first(where: { $0.name == name }) else {
        let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("HANDOFF_FUZZ_TARGET must name a target: \(names)\n".utf8))
        exit(2)
    }
    selected = target
    return 0
}

/// Called by libFuzzer for every input: runs the selected target on a copy of the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selected?.run(bytes)
    return 0
}
