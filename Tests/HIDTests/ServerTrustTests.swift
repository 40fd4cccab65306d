import TestExpectations
import Testing
import HID
#if canImport(Glibc)
import Glibc
#endif

/// A client checks that the event server is its user's before it says
/// anything to it, and shows names others chose only escaped.
@Suite struct ServerTrustTests {
    private let me = ServerTrust(allowsRootServer: false, userIdentifier: 1000)

    private func peer(_ user: UInt32) -> PeerCredentials {
        PeerCredentials(processIdentifier: 42, userIdentifier: user, groupIdentifier: user)
    }

    @Test func aServerOfThisUserIsTrustedAnotherUsersIsNot() {
        #expect(me.problem(withServer: peer(1000)) == nil)
        expectEqual(me.problem(withServer: peer(1001)), "it runs as user 1001 (pid 42), not as this user (1000)")
    }

    @Test func aRootServerIsTrustedOnlyWhenAllowed() {
        expectEqual(me.problem(withServer: peer(0)), "it runs as root, not as this user (1000); set OPENUIKIT_ALLOW_ROOT_SERVER=1 to accept a root server")
        var allowing = me
        allowing.allowsRootServer = true
        #expect(allowing.problem(withServer: peer(0)) == nil)
        #expect(allowing.problem(withServer: peer(1001)) != nil)
        // Root's own clients trust root's server: it is their user.
        #expect(ServerTrust(allowsRootServer: false, userIdentifier: 0).problem(withServer: peer(0)) == nil)
    }

    @Test func theDirectoryMustBeThisUsersAndClosedToWritersOrSticky() {
        #expect(me.problem(withDirectory: "/run/user/1000/openuikit", owner: 1000, mode: UInt32(S_IFDIR) | 0o700) == nil)
        #expect(me.problem(withDirectory: "/run/openuikit", owner: 0, mode: UInt32(S_IFDIR) | 0o755) == nil)
        #expect(me.problem(withDirectory: "/tmp", owner: 0, mode: UInt32(S_IFDIR) | 0o1777) == nil)
        #expect(me.problem(withDirectory: "/tmp/openuikit-1000", owner: 1001, mode: UInt32(S_IFDIR) | 0o700)
            == "its directory /tmp/openuikit-1000 belongs to user 1001, not to this user (1000)")
        #expect(me.problem(withDirectory: "/srv/shared", owner: 1000, mode: UInt32(S_IFDIR) | 0o777)
            == "its directory /srv/shared can be written by other users and is not sticky: any of them could have put their own socket there")
        #expect(me.problem(withDirectory: "/srv/group", owner: 1000, mode: UInt32(S_IFDIR) | 0o770) != nil)
    }

    @Test(.enabled(if: SecondUser.isAvailable, SecondUser.unavailableReason))
    func anImpostorOfAnotherUserHearsNoHello() throws {
        // Another user got to a shared (sticky) directory first and listens
        // at the path: the client connects, sees whose server it is, and
        // hangs up without a word.
        let directory = try TemporaryDirectory(mode: 0o1777)
        let path = directory.path + "/server.sock"
        let impostor = try SecondUser.listen(at: path)
        #expect(throws: MessageSocketError.untrustedServer(path, "it runs as user \(SecondUser.identifier) (pid \(impostor.processIdentifier)), not as this user (\(getuid()))")) {
            _ = try MessageSocket.connectToServer(at: path, trust: ServerTrust(allowsRootServer: false))
        }
        expectEqual(impostor.bytesHeard(), 0)
    }

    @Test func aSocketInADirectoryOthersCanWriteIsNotConnectedTo() throws {
        let directory = try TemporaryDirectory(mode: 0o777)
        let path = directory.path + "/server.sock"
        let listener = try UnixListener(path: path)
        #expect(throws: MessageSocketError.untrustedServer(path, "its directory \(directory.path) can be written by other users and is not sticky: any of them could have put their own socket there")) {
            _ = try MessageSocket.connectToServer(at: path)
        }
        #expect(!listener.hasWaitingConnection)
    }

    @Test func namesAreEscapedWhereverTheyAreShown() {
        expectEqual("Photos".escapedForDisplay, "Photos")
        expectEqual("Café 日本".escapedForDisplay, "Café 日本")
        expectEqual("Evil\nopenuikit-server: forged".escapedForDisplay, "Evil\\nopenuikit-server: forged")
        expectEqual("\u{1B}[2J\u{1B}]0;title\u{07}".escapedForDisplay, "\\u{1B}[2J\\u{1B}]0;title\\u{7}")
        expectEqual("a\\nb".escapedForDisplay, "a\\\\nb")  // a real backslash cannot pass for an escape
        expectEqual("\u{9B}31m\u{202E}txt.exe\u{2028}".escapedForDisplay, "\\u{9B}31m\\u{202E}txt.exe\\u{2028}")
        expectEqual("tab\there\r".escapedForDisplay, "tab\\there\\r")
    }
}

/// A directory of its own for one test, removed with what is in it.
final class TemporaryDirectory {
    let path: String

    init(mode: mode_t = 0o700) throws {
        var template = Array("/tmp/openuikit-trust-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw TrustTestError("mkdtemp failed")
        }
        path = String(cString: made)
        chmod(path, mode)
    }

    deinit {
        _ = system("rm -rf '\(path)'")
    }
}

/// A listening socket the test holds, to see whether anyone connected.
final class UnixListener {
    let descriptor: Int32

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard var address = UnixSocketAddress(path: path),
              address.withSockaddr({ bind(descriptor, $0, $1) }) == 0, listen(descriptor, 4) == 0 else {
            close(descriptor)
            throw TrustTestError("cannot listen at \(path)")
        }
    }

    deinit { close(descriptor) }

    var hasWaitingConnection: Bool {
        var polled = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&polled, 1, 0) > 0
    }
}

/// Another user on this machine (nobody, 65534), for tests of what a
/// process of someone else can do. It takes root to become another user;
/// where the tests do not run as root, or `setpriv` or `perl` is missing,
/// those tests are skipped and say why.
enum SecondUser {
    static let identifier: UInt32 = 65534

    static let isAvailable: Bool = getuid() == 0
        && system("setpriv --reuid=65534 --regid=65534 --clear-groups perl -e 1 >/dev/null 2>&1") == 0

    static let unavailableReason: Comment = """
        SKIPPED, NOT PASSED: this test plays a second user (uid 65534) and needs to run as root with \
        setpriv and perl; here the uid is \(getuid()) or they are missing
        """

    /// A process of the second user listening at `path` and counting the
    /// bytes its first caller sends before hanging up (at most 5 s).
    final class Impostor {
        let processIdentifier: Int32
        private let output: UnsafeMutablePointer<FILE>

        fileprivate init(path: String) throws {
            let script = """
                use Socket; use IO::Handle; STDOUT->autoflush(1);
                socket(my $s, AF_UNIX, SOCK_SEQPACKET, 0) or die "socket: $!";
                bind($s, pack_sockaddr_un($ARGV[0])) or die "bind: $!";
                listen($s, 4) or die "listen: $!";
                print "$$\\n";
                accept(my $c, $s) or die "accept: $!";
                my $total = 0; while (1) { my $n = sysread($c, my $b, 70000); last if !$n; $total += $n; }
                print "$total\\n";
                """
            let command = "exec timeout 5 setpriv --reuid=65534 --regid=65534 --clear-groups perl -e '\(script)' '\(path)' 2>&1"
            guard let output = popen(command, "r") else { throw TrustTestError("popen failed") }
            self.output = output
            let first = Self.line(output)
            guard let pid = Int32(first) else {
                pclose(output)
                throw TrustTestError("the second user's listener did not start: \(first)")
            }
            processIdentifier = pid
        }

        deinit { pclose(output) }

        /// What it heard from the connection it accepted, in bytes; -1 if it never said.
        func bytesHeard() -> Int { Int(Self.line(output)) ?? -1 }

        private static func line(_ file: UnsafeMutablePointer<FILE>) -> String {
            var buffer = [CChar](repeating: 0, count: 256)
            guard fgets(&buffer, Int32(buffer.count), file) != nil else { return "" }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .trimmingSuffix("\n")
        }
    }

    static func listen(at path: String) throws -> Impostor { try Impostor(path: path) }
}

struct TrustTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

private extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
