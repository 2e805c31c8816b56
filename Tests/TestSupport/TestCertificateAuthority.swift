import Foundation

/// A throwaway certificate authority made with the `openssl` command for one test, and a server certificate it
/// signed for `localhost`, `receiver.test`, 127.0.0.1, 127.0.0.2 and ::1. Files live in a scratch folder.
public struct TestCertificateAuthority: Sendable {
    /// PEM of the CA certificate (what a client trusts, e.g. `FORWARD_CA_FILE`).
    public let caFile: String
    /// PEM of the server certificate and its key.
    public let certificateFile: String
    public let keyFile: String

    /// Generates the CA and the server certificate (P-256 keys, valid for 2 days).
    public init() throws {
        let folder = try TestEnvironment.scratchFolder() + "/ca-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        caFile = folder + "/ca.pem"
        certificateFile = folder + "/server.pem"
        keyFile = folder + "/server.key"
        let extensions = folder + "/server.ext"
        try """
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:localhost, DNS:receiver.test, IP:127.0.0.1, IP:127.0.0.2, IP:::1
            """.write(toFile: extensions, atomically: true, encoding: .utf8)
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try Shell.run(["openssl", "req", "-x509"] + key + [
            "-keyout", folder + "/ca.key", "-out", caFile, "-days", "2", "-subj", "/CN=Handoff Test CA",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try Shell.run(["openssl", "req"] + key + [
            "-keyout", keyFile, "-out", folder + "/server.csr", "-subj", "/CN=receiver.test"])
        try Shell.run(["openssl", "x509", "-req", "-in", folder + "/server.csr", "-CA", caFile,
                       "-CAkey", folder + "/ca.key", "-CAcreateserial", "-out", certificateFile, "-days", "2",
                       "-extfile", extensions])
    }
}
