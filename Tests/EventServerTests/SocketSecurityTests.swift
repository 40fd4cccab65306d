#if canImport(Glibc)
import Glibc
#endif
@testable import EventServer
import HID
import TestExpectations
import Testing

/// Where the server listens, and what another user on the machine can do
/// about it: plant a link, share a directory, choose a name.
@Suite struct SocketSecurityTests {
    /// A fresh directory (mode 0700) for one test, removed afterwards.
    final class Scratch {
        let path: String
        init() {
            var template = Array("/tmp/openuikit-security-XXXXXX".utf8CString)
            path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        }
        deinit { _ = system("rm -rf '\(path)'") }
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    private func start(_ socketPath: String, owned: Bool) throws(EventServerError) -> EventServer {
        try EventServer(configuration: ServerConfiguration(socketPath: socketPath, ownsSocketDirectory: owned, log: { _ in }))
    }

    @Test func aLinkPlantedAtTheServersOwnDirectoryIsNotFollowed() throws {
        let scratch = Scratch()
        let victim = scratch.path + "/victim"
        mkdir(victim, 0o755)
        symlink(victim, scratch.path + "/openuikit")
        #expect(throws: EventServerError.socket("the socket's directory \(scratch.path)/openuikit is a symbolic link: the server makes its own directory there and follows no link in its place; remove the link")) {
            _ = try start(scratch.path + "/openuikit/server.sock", owned: true)
        }
        expectEqual(mode(victim), 0o755)  // not closed to its owner's friends
        #expect(access(victim + "/server.sock", F_OK) != 0)
    }

    @Test func theServersOwnDirectoryIsMadePrivateOrClosedIfItWasOpen() throws {
        let scratch = Scratch()
        let made = try start(scratch.path + "/new/server.sock", owned: true)
        expectEqual(mode(scratch.path + "/new"), 0o700)
        made.shutDown()
        mkdir(scratch.path + "/open", 0o755)
        chmod(scratch.path + "/open", 0o755)
        let closed = try start(scratch.path + "/open/server.sock", owned: true)
        expectEqual(mode(scratch.path + "/open"), 0o700)
        closed.shutDown()
    }

    @Test func theServersOwnDirectoryBelongingToAnotherUserIsRefusedEvenIfSticky() throws {
        let scratch = Scratch()
        let directory = scratch.path + "/openuikit"
        mkdir(directory, 0o1777)
        chmod(directory, 0o1777)
        chown(directory, 65534, 65534)
        #expect(throws: EventServerError.socket("the socket's directory \(directory) belongs to user 65534, not to this user (\(getuid()))")) {
            _ = try start(directory + "/server.sock", owned: true)
        }
    }

    @Test func aNamedSocketInADirectoryOthersCanWriteIsRefusedUnlessSticky() throws {
        let scratch = Scratch()
        chmod(scratch.path, 0o777)
        #expect(throws: EventServerError.socket("the socket's directory \(scratch.path) can be written by other users and is not sticky: any of them could remove the server's socket and put their own in its place; choose a directory only you can write to")) {
            _ = try start(scratch.path + "/server.sock", owned: false)
        }
        chmod(scratch.path, 0o1777)
        let server = try start(scratch.path + "/server.sock", owned: false)
        expectEqual(mode(scratch.path), 0o1777)  // a shared directory is left as it is
        server.shutDown()
    }

    @Test func aLinkAtTheSocketPathIsRefusedSayingSo() throws {
        let scratch = Scratch()
        symlink(scratch.path + "/elsewhere", scratch.path + "/server.sock")
        #expect(throws: EventServerError.socket("\(scratch.path)/server.sock is a symbolic link, not a socket: the server does not listen through a link or remove one; remove it or choose another --socket")) {
            _ = try start(scratch.path + "/server.sock", owned: false)
        }
    }

    @Test func aFileAtTheSocketPathIsNeitherRemovedNorReplaced() throws {
        let scratch = Scratch()
        let path = scratch.path + "/notes.txt"
        let file = fopen(path, "w")
        fputs("keep me", file)
        fclose(file)
        #expect(throws: EventServerError.socket("\(path) exists and is not a socket; the server does not replace it: remove it or choose another --socket")) {
            _ = try start(path, owned: false)
        }
        expectEqual(access(path, F_OK), 0)
    }

    @Test func aNameWithControlCharactersIsShownEscapedInTheLogAndInReplies() throws {
        let harness = try ServerHarness()
        let evil = try harness.connect(name: "Evil\nopenuikit-server: \"Bank\" is in front\u{1B}[2J")
        #expect(harness.log.lines.allSatisfy { !$0.contains("\n") && !$0.contains("\u{1B}") })
        #expect(harness.log.contains("\"Evil\\nopenuikit-server: \"Bank\" is in front\\u{1B}[2J\" (client 1"))
        let control = try harness.connect(.control, name: "switcher")
        try control.send(.controlRequest(.switchTo("Bank\u{7}")))
        harness.turn()
        guard case .controlReply(.failed(let why)) = try #require(control.receive().first) else {
            Issue.record("no failure reply"); return
        }
        #expect(!why.contains("\n") && !why.contains("\u{1B}") && !why.contains("\u{7}"))
        #expect(why.contains("Bank\\u{7}"))
        #expect(why.contains("Evil\\nopenuikit-server"))
        withExtendedLifetime(evil) {}
    }
}
