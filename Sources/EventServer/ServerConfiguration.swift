#if canImport(Glibc)
import Glibc
#endif
import HID

/// The screen the server drives: its size in points and its scale. Every
/// application is told it in the welcome, so that `UIScreen.main` agrees.
public struct Screen: Equatable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    public var scale: Double

    /// An iPhone 12–15's screen: 390 × 844 points at 3 pixels per point.
    public static let standard = Screen(width: 390, height: 844, scale: 3)

    public init(width: Double, height: Double, scale: Double) {
        self.width = width
        self.height = height
        self.scale = scale
    }

    /// Reads `WIDTHxHEIGHT@SCALE` (`390x844@3`); the scale may be left out (1).
    public init?(parsing text: String) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let width = Double(size[0]), let height = Double(size[1]) else { return nil }
        let scale = parts.count == 2 ? Double(parts[1]) : 1
        guard let scale, [width, height, scale].allSatisfy({ $0.isFinite && $0 > 0 }),
              width <= 100_000, height <= 100_000, scale <= 16 else { return nil }
        self.init(width: width, height: height, scale: scale)
    }

    /// The screen's size in pixels: what a frame of it holds.
    public var pixelWidth: Int { Int((width * scale).rounded()) }
    public var pixelHeight: Int { Int((height * scale).rounded()) }

    public var description: String {
        func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
        return "\(number(width))x\(number(height))@\(number(scale))"
    }
}

/// How an event server runs.
public struct ServerConfiguration: Sendable {
    public var socketPath: String
    /// Whether the socket's directory is the server's own (the default
    /// one): made with mode 0700 and closed to others if it was open, and
    /// never reached through a symbolic link. Any other directory is only
    /// checked: this user's, or sticky, and not writable by others.
    public var ownsSocketDirectory: Bool
    public var screen: Screen
    /// The display's refreshes per second (60 or 120): the frame clock's
    /// rate where the output has no vsync of its own.
    public var refreshRate: Int
    /// How long an application may leave an event unacknowledged before it
    /// is not responding: 5 s, Android's dispatching timeout.
    public var watchdogTimeout: Double
    /// How long a client has after connecting to say hello.
    public var helloTimeout: Double
    /// Whether a peer may connect; by default only processes of the user
    /// running the server may. Tests replace it to play another user.
    public var acceptsPeer: @Sendable (PeerCredentials) -> Bool
    /// Whether an inspector may inspect an application, from both peers'
    /// credentials: by default only a process of the application's own
    /// user may. Tests replace it to play another user.
    public var mayInspect: @Sendable (_ inspector: PeerCredentials, _ application: PeerCredentials) -> Bool
    /// Where the log goes; standard error by default.
    public var log: @Sendable (String) -> Void

    public init(
        socketPath: String = ServerConfiguration.defaultSocketPath(),
        ownsSocketDirectory: Bool? = nil,
        screen: Screen = .standard,
        refreshRate: Int = 60,
        watchdogTimeout: Double = 5,
        helloTimeout: Double = 5,
        acceptsPeer: @escaping @Sendable (PeerCredentials) -> Bool = ServerConfiguration.sameUser,
        mayInspect: @escaping @Sendable (_ inspector: PeerCredentials, _ application: PeerCredentials) -> Bool = ServerConfiguration.sameUserInspects,
        log: @escaping @Sendable (String) -> Void = ServerConfiguration.logToStandardError
    ) {
        self.socketPath = socketPath
        self.ownsSocketDirectory = ownsSocketDirectory ?? (socketPath == ServerConfiguration.defaultSocketPath())
        self.screen = screen
        self.refreshRate = refreshRate
        self.watchdogTimeout = watchdogTimeout
        self.helloTimeout = helloTimeout
        self.acceptsPeer = acceptsPeer
        self.mayInspect = mayInspect
        self.log = log
    }

    /// The path applications look for the server at: see ``ServerProtocol/defaultSocketPath()``.
    public static func defaultSocketPath() -> String {
        ServerProtocol.defaultSocketPath()
    }

    /// Accepts processes of the user the server runs as.
    public static let sameUser: @Sendable (PeerCredentials) -> Bool = { $0.userIdentifier == getuid() }

    /// An inspector may inspect only applications of its own user.
    public static let sameUserInspects: @Sendable (PeerCredentials, PeerCredentials) -> Bool = { inspector, application in
        inspector.userIdentifier == application.userIdentifier
    }

    public static let logToStandardError: @Sendable (String) -> Void = { line in
        var text = "openuikit-server: \(line)\n"
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
