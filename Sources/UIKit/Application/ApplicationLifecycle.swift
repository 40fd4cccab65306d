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
        return "\(delegateClass)" == name || NSStringFromClass(delegateClass) == name
    }

    /// The event server's socket: `OPENUIKIT_SERVER`, else the default path.
    static var eventServerPath: (path: String, isExplicit: Bool) {
        if let named = getenv("OPENUIKIT_SERVER"), named.pointee != 0 { return (String(cString: named), true) }
        return (ServerProtocol.defaultSocketPath(), false)
    }

    /// Connects to the event server, launches the delegate and becomes active.
    func launch(name: String) {
        let (path, isExplicit) = Self.eventServerPath
        if isExplicit || access(path, F_OK) == 0 {
            connectToEventServer(at: path, name: name)
        }
        applicationState = .inactive
        _ = delegate?.application(self, didFinishLaunchingWithOptions: nil)
        if let server = inputPort.server, !server.welcome.isForeground {
            applicationState = .background
            delegate?.applicationDidEnterBackground(self)
        } else {
            applicationState = .active
            delegate?.applicationDidBecomeActive(self)
        }
    }

    /// Says hello to the server at `path`; the screen it drives becomes
    /// `UIScreen.main`. Without a server the application runs on its own.
    func connectToEventServer(at path: String, name: String) {
        do {
            let server = try EventServerConnection.connect(to: path, name: name)
            inputPort.attach(server)
            let welcome = server.welcome
            UIScreen.main.bounds = CGRect(x: 0, y: 0, width: welcome.screenWidth, height: welcome.screenHeight)
            UIScreen.main.scale = CGFloat(welcome.screenScale)
        } catch {
            let message = "no event server: \(error)"
            diagnostics.report(Diagnostic(.inputPort, message))
            standardError(message)
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
                delegate?.applicationWillResignActive(self)
                applicationState = .inactive
            }
            touchRouter.cancelAllTouches()
            cancelAllPresses()
            applicationState = .background
            delegate?.applicationDidEnterBackground(self)
        case .foreground:
            guard applicationState != .active else { return }
            if applicationState == .background {
                delegate?.applicationWillEnterForeground(self)
                applicationState = .inactive
            }
            applicationState = .active
            delegate?.applicationDidBecomeActive(self)
        }
    }

    /// Ends the application: `applicationWillTerminate(_:)`, then the main
    /// run loop stops.
    func terminate() {
        guard !isTerminating else { return }
        isTerminating = true
        delegate?.applicationWillTerminate(self)
        runLoop.stop()
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
