import Foundation
import Testing
import TestSupport

/// HandoffKit is what an app compiles: Foundation only (plus FoundationNetworking on Linux and the Apple frameworks
/// behind `#if canImport`), never a server target or a C module.
@Suite struct LibraryImportsTests {
    @Test func theLibraryImportsFoundationAndThePlatformFrameworksOnly() throws {
        let folder = HandoffBinary.packageRoot() + "/Sources/HandoffKit"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        let allowed: Set = ["Foundation", "FoundationNetworking", "Security", "StoreKit", "UIKit"]
        for file in files {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") || $0.hasPrefix("@testable") }
                .map { $0.split(separator: " ").last.map(String.init) ?? "" }
            for module in imports {
                #expect(allowed.contains(module), "\(file) imports \(module)")
            }
        }
    }
}
