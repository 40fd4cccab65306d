#if canImport(Glibc)
import Glibc
#endif

/// What a client checks before it tells an event server anything (its name,
/// its process id) or takes input from it: that the server is this user's.
///
/// Whatever listens at the socket path gets the client's hello and feeds it
/// touches, so a path another user could have taken first (a `/tmp`
/// directory made before the real server started, a directory others can
/// write to) must not be trusted on its name alone. The checks:
/// - the socket's directory belongs to this user (or root) and no one else
///   can write to it, or it is sticky (`/tmp`: others may add entries but
///   cannot remove or rename this user's);
/// - the process listening, as the kernel saw it (`SO_PEERCRED`), runs as
///   this user; as root only when ``allowsRootServer`` says so
///   (`OPENUIKIT_ALLOW_ROOT_SERVER=1`), since a root server is trusted with
///   every user's input only on purpose.
public struct ServerTrust: Sendable {
    /// Whether a server running as root is accepted by a client of another user.
    public var allowsRootServer: Bool
    /// The user this client runs as.
    public var userIdentifier: UInt32

    public init(allowsRootServer: Bool = false, userIdentifier: UInt32 = getuid()) {
        self.allowsRootServer = allowsRootServer
        self.userIdentifier = userIdentifier
    }

    /// The environment variable that makes a client accept a root server.
    public static let allowRootServerVariable = "OPENUIKIT_ALLOW_ROOT_SERVER"

    /// This user, accepting a root server when ``allowRootServerVariable`` is `1`.
    public static func fromEnvironment() -> ServerTrust {
        let allowed = getenv(allowRootServerVariable).map { String(cString: $0) == "1" } ?? false
        return ServerTrust(allowsRootServer: allowed)
    }

    /// Nil when a socket in a directory with this owner and mode may be
    /// trusted, else why not.
    public func problem(withDirectory directory: String, owner: UInt32, mode: UInt32) -> String? {
        let isSticky = mode & UInt32(S_ISVTX) != 0
        if isSticky { return nil }
        guard owner == userIdentifier || owner == 0 else {
            return "its directory \(directory) belongs to user \(owner), not to this user (\(userIdentifier))"
        }
        guard mode & UInt32(S_IWGRP | S_IWOTH) == 0 else {
            return "its directory \(directory) can be written by other users and is not sticky: any of them could have put their own socket there"
        }
        return nil
    }

    /// Nil when a server running as `peer` may be trusted, else why not.
    public func problem(withServer peer: PeerCredentials) -> String? {
        if peer.userIdentifier == userIdentifier { return nil }
        if peer.userIdentifier == 0 {
            return allowsRootServer ? nil
                : "it runs as root, not as this user (\(userIdentifier)); set \(Self.allowRootServerVariable)=1 to accept a root server"
        }
        return "it runs as user \(peer.userIdentifier) (pid \(peer.processIdentifier)), not as this user (\(userIdentifier))"
    }

    /// Checks the directory of the socket at `path` as it is now.
    func checkDirectory(ofSocket path: String) throws(MessageSocketError) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        var info = stat()
        guard stat(directory.isEmpty ? "/" : directory, &info) == 0 else { return }  // connect() will say why
        if let problem = problem(withDirectory: directory.isEmpty ? "/" : directory, owner: info.st_uid, mode: info.st_mode) {
            throw .untrustedServer(path, problem)
        }
    }
}

extension MessageSocket {
    /// Connects to the event server at `path` once its directory is
    /// trusted, and keeps the connection only if the process listening is
    /// trusted too (see ``ServerTrust``). Nothing is sent before both checks.
    public static func connectToServer(at path: String, trust: ServerTrust = .fromEnvironment()) throws(MessageSocketError) -> MessageSocket {
        try trust.checkDirectory(ofSocket: path)
        let socket = try connect(to: path)
        let peer = try socket.peerCredentials()
        if let problem = trust.problem(withServer: peer) {
            socket.close()
            throw .untrustedServer(path, problem)
        }
        return socket
    }
}
