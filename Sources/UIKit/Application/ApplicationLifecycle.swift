#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HID

/// Runs an application: the `main()` of every UIKit application, called by
/// the `@main` delegate class, or from a `main.swift` as Xcode's older
/// templates do:
///
/// ```swift
/// UIApplicationMain(CommandLine.argc, CommandLine.unsafeArgv, nil, NSStringFromClass(AppDelegate.self))
/// ```
///
/// Launch makes the delegate named by `delegateClassName` (a subclass of
/// `UIResponder`, through ``UIResponder/init(madeByUIKit:)``) unless one is
/// set already, connects to the event server if one is reachable, calls
/// `application(_:didFinishLaunchingWithOptions:)`, connects the first
/// scene if the application uses scenes, becomes active if it is in front,
/// and then runs the main run loop until the application is told to
/// terminate. The main run loop is the main thread's only loop, as on iOS:
/// it also runs the main dispatch queue, the main actor's tasks and
/// Foundation's timers. As on iOS it does not return: the process ends with
/// status 0 after `applicationWillTerminate(_:)`.
///
/// `principalClassName` must be nil or `"UIApplication"`: subclasses of
/// `UIApplication` are not supported.
@preconcurrency @MainActor
@discardableResult
public func UIApplicationMain(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
    _ principalClassName: String?, _ delegateClassName: String?
) -> Int32 {
    let application = UIApplication.shared
    if let principalClassName, principalClassName != "UIApplication" {
        standardError("UIApplicationMain: cannot make a \(principalClassName): subclasses of UIApplication are not supported on this platform")
        return 1
    }
    if let delegateClassName, !application.hasDelegate(named: delegateClassName) {
        guard let delegateClass = NSClassFromString(delegateClassName) as? UIResponder.Type,
              let delegate = delegateClass.init(madeByUIKit: UIResponder.MadeByUIKit()) as? any UIApplicationDelegate else {
            standardError("UIApplicationMain: no application delegate class named \(delegateClassName): it must be a subclass of UIResponder that adopts UIApplicationDelegate (NSStringFromClass(AppDelegate.self) names one)")
            return 1
        }
        application.delegate = delegate
        application.retainedDelegate = delegate
    }
    application.runLoop.serveMainThread()
    application.launch(name: applicationName(arguments: argc > 0 ? argv[0].map { String(cString: $0) } : nil))
    application.runUntilTerminated()
    exit(0)
}

extension UIApplication {
    /// Where an application stands (Apple's `UIApplication.State`).
    public enum State: Int, Sendable {
        /// In front, receiving events.
        case active = 0
        /// In front, not receiving events: on the way in or out.
        case inactive = 1
        /// Not in front.
        case background = 2
    }

    /// Whether the delegate set already is of the class `name` names, as
    /// `NSStringFromClass` or `String(describing:)` spells it.
    func hasDelegate(named name: String) -> Bool {
        guard let delegate else { return false }
        let delegateClass: AnyClass = type(of: delegate)
        // `String(reflecting:)` spells a class as `NSStringFromClass` does
        // ("Module.Class"), and, unlike it, does not trap on a nested class.
        return "\(delegateClass)" == name || String(reflecting: delegateClass) == name
    }

    /// The event server's socket: `OPENUIKIT_SERVER`, else the default path.
    static var eventServerPath: (path: String, isExplicit: Bool) {
        if let named = getenv("OPENUIKIT_SERVER"), named.pointee != 0 { return (String(cString: named), true) }
        return (ServerProtocol.defaultSocketPath(), false)
    }

    /// `OPENUIKIT_UNBUFFERED_TOUCHES=1`: every digitizer frame reaches the
    /// views as it arrives, rather than moves once per frame (what Android's
    /// `View.requestUnbufferedDispatch` gives a view), for tools and tests
    /// that follow each sample of a recording as a call of its own.
    static var touchesAreUnbuffered: Bool {
        guard let value = getenv("OPENUIKIT_UNBUFFERED_TOUCHES") else { return false }
        return String(cString: value) == "1"
    }

    /// How long an application whose server was named (`OPENUIKIT_SERVER`)
    /// waits for that server's socket to appear: long enough for a server
    /// started at the same moment, short enough that a wrong path is
    /// noticed. Our choice; iOS applications never start before their system.
    static let eventServerWaitTimeout: TimeInterval = 5

    /// Connects to the event server, launches the delegate, connects the
    /// scene and becomes active (or goes to the background if the server
    /// has another application in front).
    func launch(name: String) {
        deliversEveryTouchFrame = Self.touchesAreUnbuffered
        let (path, isExplicit) = Self.eventServerPath
        if isExplicit {
            connectToEventServer(at: path, name: name, waitingUpTo: Self.eventServerWaitTimeout)
        } else if access(path, F_OK) == 0 {
            connectToEventServer(at: path, name: name)
        }
        applicationState = .inactive
        _ = delegate?.application(self, didFinishLaunchingWithOptions: nil)
        connectScene()
        if let server = inputPort.server, !server.welcome.isForeground {
            applicationState = .background
            lifecycle(.didEnterBackground)
        } else {
            lifecycle(.willEnterForeground)
            applicationState = .active
            lifecycle(.didBecomeActive)
            screenFrames?.redrawWhole()
        }
    }

    /// The screen the event server drives becomes `UIScreen.main`: its
    /// size, scale and safe area (which the windows follow).
    func adoptScreen(of welcome: ServerMessage.Welcome) {
        UIScreen.main.bounds = CGRect(x: 0, y: 0, width: welcome.screenWidth, height: welcome.screenHeight)
        UIScreen.main.scale = CGFloat(welcome.screenScale)
        let safeArea = welcome.screenSafeArea
        UIScreen.main.safeAreaInsets = UIEdgeInsets(top: safeArea.top, left: safeArea.left, bottom: safeArea.bottom, right: safeArea.right)
    }

    /// Says hello to the server at `path`; the screen it drives becomes
    /// `UIScreen.main`. Without a server the application runs on its own,
    /// saying so once.
    ///
    /// With `waitingUpTo` seconds, a server that is not listening yet (no
    /// socket, or one bound and not yet listening: a server started at the
    /// same moment) is waited for, saying so once.
    func connectToEventServer(at path: String, name: String, waitingUpTo timeout: TimeInterval = 0) {
        let retryInterval: TimeInterval = 0.02
        var waited: TimeInterval = 0
        while true {
            do {
                let server = try EventServerConnection.connect(to: path, name: name)
                inputPort.attach(server)
                adoptScreen(of: server.welcome)
                startScreenFrames(for: server)
                return
            } catch .socket(.connect(_, let code)) where (code == ENOENT || code == ECONNREFUSED) && waited < timeout {
                if waited == 0 { standardError("waiting for the event server at \(path)") }
                usleep(UInt32(retryInterval * 1_000_000))
                waited += retryInterval
            } catch {
                let after = waited > 0 ? " (after waiting \(Int(timeout.rounded())) s)" : ""
                report(Diagnostic(.inputPort, "no event server: \(error)\(after)"))
                return
            }
        }
    }

    /// Runs the main run loop until the application terminates.
    func runUntilTerminated() {
        while !isTerminating { runLoop.run(for: 3600) }
    }

    /// The server brought the application to the front or sent it away.
    func serverDidChange(_ state: ServerMessage.AppState) {
        switch state {
        case .background:
            guard applicationState != .background else { return }
            if applicationState == .active {
                lifecycle(.willResignActive)
                applicationState = .inactive
            }
            touchRouter.cancelAllTouches()
            cancelAllPresses()
            applicationState = .background
            lifecycle(.didEnterBackground)
        case .foreground:
            guard applicationState != .active else { return }
            if applicationState == .background {
                lifecycle(.willEnterForeground)
                applicationState = .inactive
            }
            applicationState = .active
            lifecycle(.didBecomeActive)
            // The server gave back this application's buffers when it went
            // away and shows another's frame until this one draws.
            screenFrames?.redrawWhole()
        }
    }

    /// Ends the application, as an iPhone ends one in front: its scene
    /// resigns and goes to the background, then
    /// `applicationWillTerminate(_:)`, then the main run loop stops.
    func terminate() {
        guard !isTerminating else { return }
        isTerminating = true
        if usesScenes {
            if applicationState == .active { lifecycle(.willResignActive) }
            if applicationState != .background { lifecycle(.didEnterBackground) }
        }
        delegate?.applicationWillTerminate(self)
        runLoop.stop()
    }

    // MARK: Scenes

    /// A step of the life cycle, told to the scene's delegate when the
    /// application uses scenes, else to the application's delegate, as iOS
    /// does since scenes came (an application with a scene delegate hears
    /// nothing of these in its application delegate).
    enum LifecycleStep {
        case willEnterForeground, didBecomeActive, willResignActive, didEnterBackground
    }

    /// Whether a scene delegate receives the life cycle.
    var usesScenes: Bool { connectedWindowScene?.delegate != nil }

    func lifecycle(_ step: LifecycleStep) {
        if let scene = connectedWindowScene {
            switch step {
            case .willEnterForeground, .willResignActive: scene.activationState = .foregroundInactive
            case .didBecomeActive: scene.activationState = .foregroundActive
            case .didEnterBackground: scene.activationState = .background
            }
        }
        if let scene = connectedWindowScene, let sceneDelegate = scene.delegate {
            switch step {
            case .willEnterForeground:
                sceneDelegate.sceneWillEnterForeground(scene)
                NotificationCenter.default.post(name: UIScene.willEnterForegroundNotification, object: scene)
            case .didBecomeActive:
                sceneDelegate.sceneDidBecomeActive(scene)
                NotificationCenter.default.post(name: UIScene.didActivateNotification, object: scene)
            case .willResignActive:
                sceneDelegate.sceneWillResignActive(scene)
                NotificationCenter.default.post(name: UIScene.willDeactivateNotification, object: scene)
            case .didEnterBackground:
                sceneDelegate.sceneDidEnterBackground(scene)
                NotificationCenter.default.post(name: UIScene.didEnterBackgroundNotification, object: scene)
            }
            return
        }
        switch step {
        case .willEnterForeground:
            // At launch an application delegate hears only didBecomeActive.
            if applicationState == .background { delegate?.applicationWillEnterForeground(self) }
        case .didBecomeActive: delegate?.applicationDidBecomeActive(self)
        case .willResignActive: delegate?.applicationWillResignActive(self)
        case .didEnterBackground: delegate?.applicationDidEnterBackground(self)
        }
    }

    /// Connects the application's one window scene: asks the delegate for
    /// its configuration, makes the scene and its delegate from the classes
    /// it names, and tells the delegate the scene will connect.
    func connectScene() {
        guard connectedWindowScene == nil else { return }
        let role = UISceneSession.Role.windowApplication
        let manifestConfiguration = sceneManifest?.configurations[role]?.first
        let session = UISceneSession(
            role: role,
            configuration: manifestConfiguration ?? UISceneConfiguration(name: Self.templateConfigurationName, sessionRole: role),
            persistentIdentifier: "\(getpid())-scene-1"
        )
        let options = UIScene.ConnectionOptions()
        let configuration = delegate?.application(self, configurationForConnecting: session, options: options) ?? session.configuration
        session.configuration = configuration
        let sceneClass = (configuration.sceneClass as? UIScene.Type) ?? UIWindowScene.self
        guard let scene = sceneClass.init(session: session, connectionOptions: options) as? UIWindowScene else {
            report(Diagnostic(.application, "the scene class \(sceneClass) is not a UIWindowScene; using UIWindowScene"))
            return connect(UIWindowScene(session: session, connectionOptions: options), delegateClass: sceneDelegateClass(for: configuration), options: options)
        }
        connect(scene, delegateClass: sceneDelegateClass(for: configuration), options: options)
    }

    private func connect(_ scene: UIWindowScene, delegateClass: AnyClass?, options: UIScene.ConnectionOptions) {
        scene.session.scene = scene
        connectedWindowScene = scene
        if let delegateClass {
            if let responderClass = delegateClass as? UIResponder.Type,
               let sceneDelegate = responderClass.init(madeByUIKit: UIResponder.MadeByUIKit()) as? any UISceneDelegate {
                scene.delegate = sceneDelegate
            } else {
                report(Diagnostic(.application, "the scene delegate class \(delegateClass) is not a UIResponder subclass adopting UISceneDelegate; the scene has no delegate"))
            }
        }
        for window in windows where window.windowScene == nil { window.windowScene = scene }
        NotificationCenter.default.post(name: UIScene.willConnectNotification, object: scene)
        scene.delegate?.scene(scene, willConnectTo: scene.session, options: options)
    }

    /// The configuration name Xcode's template gives its Info.plist entry.
    static let templateConfigurationName = "Default Configuration"

    /// The delegate class a configuration names, else the manifest's for a
    /// configuration of that name, else, for the template's configuration,
    /// the class `SceneDelegate` of the application delegate's module (what
    /// the template's Info.plist names) if there is one.
    private func sceneDelegateClass(for configuration: UISceneConfiguration) -> AnyClass? {
        if let delegateClass = configuration.delegateClass { return delegateClass }
        let named = sceneManifest?.configurations[configuration.role]?.firstSatisfying { $0.name == configuration.name }
        if let delegateClass = named?.delegateClass { return delegateClass }
        guard sceneManifest == nil, configuration.name == Self.templateConfigurationName, let delegate else { return nil }
        var module = ""
        if let name = String(reflecting: type(of: delegate)).split(separator: ".").first { module = String(name) }
        guard let candidate = NSClassFromString(module + ".SceneDelegate"), candidate is UIResponder.Type else { return nil }
        return candidate
    }
}

/// The name the application gives the event server: `OPENUIKIT_APP_NAME`,
/// else the executable's file name.
private func applicationName(arguments first: String?) -> String {
    if let named = getenv("OPENUIKIT_APP_NAME"), named.pointee != 0 { return String(cString: named) }
    guard let first, let name = first.split(separator: "/").last else { return "application" }
    return String(name)
}

private func standardError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
