import Crypto
import Foundation

extension PlayDeveloperAPI {
    /// A Google service account's JSON key file (`"type":"service_account"`), as the Play Console's API access page
    /// has it made: the account's e-mail, its RSA private key and the OAuth token URI. Never printed.
    public struct ServiceAccountKey: Sendable, CustomStringConvertible {
        /// Google's token endpoint, used when the file names none.
        public static let defaultTokenURI = "https://oauth2.googleapis.com/token"

        /// `client_email`: the assertion's issuer.
        public let clientEmail: String
        /// `private_key_id`: put in the assertion's header as `kid` when present.
        public let privateKeyID: String?
        /// `token_uri`: where the assertion is exchanged for an access token (and the assertion's audience).
        public let tokenURI: String
        /// `private_key`: signs the assertion.
        public let privateKey: RSAPrivateKey

        public init(clientEmail: String, privateKeyID: String?, tokenURI: String, privateKey: RSAPrivateKey) {
            self.clientEmail = clientEmail
            self.privateKeyID = privateKeyID
            self.tokenURI = tokenURI
            self.privateKey = privateKey
        }

        /// The key in the JSON `bytes` of a key file; throws a message that names the field at fault and never repeats
        /// the key.
        public init(json bytes: [UInt8]) throws(PlayDeveloperAPI.KeyFileError) {
            let file: KeyFile
            do {
                file = try JSONDecoder().decode(KeyFile.self, from: Data(bytes))
            } catch let DecodingError.keyNotFound(key, _) {
                throw KeyFileError("the key file has no \(key.stringValue)")
            } catch {
                throw KeyFileError("the key file is not a service account's JSON key")
            }
            guard file.type == nil || file.type == "service_account" else {
                throw KeyFileError("the key file is not of type service_account")
            }
            guard file.clientEmail.contains("@"), !file.clientEmail.contains(where: \.isWhitespace) else {
                throw KeyFileError("client_email is not an e-mail address")
            }
            let tokenURI = file.tokenURI ?? Self.defaultTokenURI
            guard tokenURI.hasPrefix("https://") || tokenURI.hasPrefix("http://") else {
                throw KeyFileError("token_uri is not an http(s) URL")
            }
            guard let privateKey = RSAPrivateKey(pem: file.privateKey) else {
                throw KeyFileError("private_key is not an unencrypted RSA private key in PEM")
            }
            self.init(clientEmail: file.clientEmail, privateKeyID: file.privateKeyID, tokenURI: tokenURI,
                      privateKey: privateKey)
        }

        public var description: String { "ServiceAccountKey(\(clientEmail), <redacted>)" }

        /// The fields of a key file that are used (others — project_id, client_id, auth URIs — are ignored).
        private struct KeyFile: Decodable {
            let type: String?
            let clientEmail: String
            let privateKey: String
            let privateKeyID: String?
            let tokenURI: String?

            enum CodingKeys: String, CodingKey {
                case type, clientEmail = "client_email", privateKey = "private_key", privateKeyID = "private_key_id"
                case tokenURI = "token_uri"
            }
        }
    }

    /// Why a service-account key file was refused (for the operator; it never holds key material).
    public struct KeyFileError: Error, Equatable, Sendable, CustomStringConvertible {
        public let message: String

        public init(_ message: String) {
            self.message = message
        }

        public var description: String { message }
    }
}
