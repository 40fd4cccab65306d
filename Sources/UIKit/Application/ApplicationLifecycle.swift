#if canImport(Glibc)
import Glibc
#endif
import HID

/// Runs an application: the `main()` of every UIKit application, called by
/// the `@main` delegate class (or by hand from a `main.swift` that set the
/// delegate first).
///
/// Launch connects to the event server if one is reachable, calls
/// `application(_:didFinishLaunchingWithOptions:)`, makes the application
/// active if it is in front, and then runs the main run loop until the
/// application is told to terminate. As on iOS it does not return: the
/// process ends with status 0 after `applicationWillTerminate(_:)`.
///
/// Swift on Linux cannot make an object from a class name: the classes
/// must be the defaults, `principalClassName` nil or `"UIApplication"` and
/// `delegateClassName` nil or the name of the delegate already set.
@preconcurrency @MainActor
@discardableResult
public func UIApplicationMain(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
    _ principalClassName: String?, _ delegateClassName: String?
) -> Int32 {
    let application = UIApplication.shared
    if let principalClassName, principalClassName != "UIApplication" {
        standardError("UIApplicationMain: cannot make a \(principalClassName) by name on this platform; subclasses of UIApplication are not supported")
        return 1
    }
    if let delegateClassName {
        guard let delegate = application.delegate, "\(type(of: delegate))" == delegateClassName
            || String(reflecting: type(of: delegate)) == delegateClassName else {
            standardError("UIApplicationMain: cannot make a \(delegateClassName) by name on this platform; set UIApplication.shared.delegate first, or mark the delegate class @main")
            return 1
        }
    }
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
