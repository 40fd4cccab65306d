#if canImport(Glibc)
import Glibc
#endif
import HID

/// The screen the server drives: its size in points, its scale and its
/// safe area. Every application is told it in the welcome, so that
/// `UIScreen.main` and the safe area of its windows agree.
public struct Screen: Equatable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    public var scale: Double
    /// How far the screen's corners, sensor housing and home indicator
    /// reach in from each edge, in points.
    public var safeArea: ScreenInsets

    /// An iPhone 12–14's screen: 390 × 844 points at 3 pixels per point,
    /// with its safe area (47 points at the top, 34 at the bottom).
    public static let standard = Screen(width: 390, height: 844, scale: 3)

    /// A screen of this size and scale, with `safeArea`; without it, the
    /// portrait safe area of the iPhone of that size and scale
    /// (``knownSafeAreas``), or none.
    public init(width: Double, height: Double, scale: Double, safeArea: ScreenInsets? = nil) {
        self.width = width
        self.height = height
        self.scale = scale
        self.safeArea = safeArea ?? Self.knownSafeArea(width: width, height: height, scale: scale) ?? .zero
    }

    /// Reads `WIDTHxHEIGHT@SCALE` (`390x844@3`); the scale may be left out (1).
    /// The safe area is the known one of an iPhone of that size and scale, if any.
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

    /// The portrait safe areas of iPhones, by screen size in points and
    /// scale, as iOS reports them in a full-screen window's
    /// `safeAreaInsets` (top, left, bottom, right). Where they come from:
    /// the device configurations of pointfreeco/swift-snapshot-testing
    /// (`Sources/SnapshotTesting/Common/View.swift`), which mirror what the
    /// simulators report, except the 430 × 932 screen (below).
    public static let knownSafeAreas: [(width: Double, height: Double, scale: Double, safeArea: ScreenInsets)] = [
        // iPhone SE (1st generation): the 20-point status bar only (swift-snapshot-testing, iPhoneSe).
        (320, 568, 2, ScreenInsets(top: 20, left: 0, bottom: 0, right: 0)),
        // iPhone 6–8 and SE (2nd, 3rd generation): the status bar (swift-snapshot-testing, iPhone8).
        (375, 667, 2, ScreenInsets(top: 20, left: 0, bottom: 0, right: 0)),
        // iPhone 6–8 Plus (swift-snapshot-testing, iPhone8Plus).
        (414, 736, 3, ScreenInsets(top: 20, left: 0, bottom: 0, right: 0)),
        // iPhone X, XS, 11 Pro (swift-snapshot-testing, iPhoneX). The 12 and 13 mini
        // share the size and scale with 50 at the top (an iPhone13Mini
        // configuration projects add beside these); the X's value is taken.
        (375, 812, 3, ScreenInsets(top: 44, left: 0, bottom: 34, right: 0)),
        // iPhone XS Max, 11 Pro Max (swift-snapshot-testing, iPhoneXsMax).
        (414, 896, 3, ScreenInsets(top: 44, left: 0, bottom: 34, right: 0)),
        // iPhone XR, 11 (swift-snapshot-testing, iPhoneXr).
        (414, 896, 2, ScreenInsets(top: 44, left: 0, bottom: 34, right: 0)),
        // iPhone 12, 12 Pro, 13, 13 Pro, 14 (swift-snapshot-testing, iPhone12).
        (390, 844, 3, ScreenInsets(top: 47, left: 0, bottom: 34, right: 0)),
        // iPhone 12 Pro Max, 13 Pro Max, 14 Plus (swift-snapshot-testing, iPhone12ProMax).
        (428, 926, 3, ScreenInsets(top: 47, left: 0, bottom: 34, right: 0)),
        // iPhone 14 Pro Max, 15 Plus, 15 Pro Max: 59 at the top, as a window
        // reports it on the 14 Pro Max (a Stack Overflow question on
        // `view.safeAreaInsets.top`, retold at
        // thedebonair.co.uk/post/why-does-view-safe-area-insets-top-contain-bad-value-in);
        // the bottom's 34 is the home indicator's on every Face ID iPhone
        // above, not a figure found for this model.
        (430, 932, 3, ScreenInsets(top: 59, left: 0, bottom: 34, right: 0)),
    ]

    /// The portrait safe area of the iPhone of this size and scale, if one is known.
    public static func knownSafeArea(width: Double, height: Double, scale: Double) -> ScreenInsets? {
        knownSafeAreas.first { $0.width == width && $0.height == height && $0.scale == scale }?.safeArea
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
    /// The kernel's CPU latency device (`/dev/cpu_dma_latency`), through
    /// which the server asks that idle processors wake at once while a
    /// finger is down (docs/screen.md, "Prompt wake-ups while a finger is
    /// down"); nil, the default: never.
    public var wakeUpLatencyDevice: String?
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
        wakeUpLatencyDevice: String? = nil,
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
        self.wakeUpLatencyDevice = wakeUpLatencyDevice
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
