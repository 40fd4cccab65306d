import Foundation
import HID
import Testing
@testable import UIKit

extension UIApplication {
    /// Connects the application, with its screen frames, to a fake event
    /// server and returns the server's end of the socket pair: its welcome
    /// gives a screen of `width` × `height` points at `scale`, the
    /// application in front.
    func connectToFakeServer(screenWidth width: Double, screenHeight height: Double, scale: Double) throws -> MessageSocket {
        let (appEnd, serverEnd) = try MessageSocket.makePair()
        let connection = EventServerConnection(socket: appEnd, welcome: .init(
            clientIdentifier: 1, screenWidth: width, screenHeight: height, screenScale: scale, isForeground: true))
        inputPort.attach(connection)
        startScreenFrames(for: connection)
        return serverEnd
    }
}

/// What overridden methods "print", in the order they ran.
@MainActor
final class CallLog {
    var entries: [String] = []
    func add(_ entry: String) { entries.append(entry) }
    func clear() { entries.removeAll() }
}

/// A view that logs its touch methods and, if asked, its hit-testing.
@MainActor
class LoggingView: UIView {
    var name = ""
    var log: CallLog?
    var logsTouches = true
    var logsHitTesting = false
    var callsSuper = false

    required override init(frame: CGRect) {
        super.init(frame: frame)
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    convenience init(_ name: String, frame: CGRect, log: CallLog, hitTesting: Bool = false, callsSuper: Bool = false) {
        self.init(frame: frame)
        self.name = name
        self.log = log
        self.logsHitTesting = hitTesting
        self.callsSuper = callsSuper
    }

    override func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
        if logsHitTesting { log?.add("\(name) hitTest") }
        let result = super.hitTest(point, with: event)
        if logsHitTesting { log?.add("\(name) → \((result as? LoggingView)?.name ?? (result == nil ? "nil" : "view"))") }
        return result
    }

    override func point(inside point: CGPoint, with event: UIEvent?) -> Bool {
        let result = super.point(inside: point, with: event)
        if logsHitTesting { log?.add("\(name) inside \(format(point)) \(result)") }
        return result
    }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        if logsTouches { log?.add("\(name) began") }
        if callsSuper || !logsTouches { super.touchesBegan(touches, with: event) }
    }

    override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        if logsTouches { log?.add("\(name) moved") }
        if callsSuper || !logsTouches { super.touchesMoved(touches, with: event) }
    }

    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        if logsTouches { log?.add("\(name) ended") }
        if callsSuper || !logsTouches { super.touchesEnded(touches, with: event) }
    }

    override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        if logsTouches { log?.add("\(name) cancelled") }
        if callsSuper || !logsTouches { super.touchesCancelled(touches, with: event) }
    }
}

/// A view that records each touch call with the touches it got.
@MainActor
class RecordingView: UIView {
    struct Call { let phase: String; let touches: Set<UITouch>; let event: UIEvent? }
    var calls: [Call] = []
    var phases: [String] { calls.map(\.phase) }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append(Call(phase: "began", touches: touches, event: event)) }
    override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append(Call(phase: "moved", touches: touches, event: event)) }
    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append(Call(phase: "ended", touches: touches, event: event)) }
    override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append(Call(phase: "cancelled", touches: touches, event: event)) }
}

/// A view controller that logs its touch methods.
@MainActor
final class LoggingViewController: UIViewController {
    var name = "controller"
    var log: CallLog?
    var callsSuper = false

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        log?.add("\(name) began")
        if callsSuper { super.touchesBegan(touches, with: event) }
    }

    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        log?.add("\(name) ended")
        if callsSuper { super.touchesEnded(touches, with: event) }
    }
}

func format(_ p: CGPoint) -> String {
    "(\(String(format: "%.2f", p.x)),\(String(format: "%.2f", p.y)))"
}

/// A clean application with one visible, key, full-screen window.
@MainActor
func makeWindow(frame: CGRect = CGRect(x: 0, y: 0, width: 400, height: 800)) -> UIWindow {
    let application = UIApplication.shared
    application.resetForTesting()
    application.diagnostics.handler = nil
    let window = UIWindow(frame: frame)
    window.makeKeyAndVisible()
    return window
}

/// A clean application whose window shows `controller`, and a synthesizer for it.
@MainActor
func makeScene(_ controller: UIViewController) -> (UIWindow, TouchSynthesizer) {
    let window = makeWindow()
    window.rootViewController = controller
    return (window, TouchSynthesizer(window: window))
}

/// A controller that logs its appearance callbacks with their `animated` flag.
@MainActor
final class AppearanceLoggingController: UIViewController {
    let name: String
    let log: CallLog

    init(_ name: String, _ log: CallLog) {
        self.name = name
        self.log = log
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func viewWillAppear(_ animated: Bool) { log.add("\(name) willAppear\(animated ? "" : " (not animated)")") }
    override func viewDidAppear(_ animated: Bool) { log.add("\(name) didAppear") }
    override func viewWillDisappear(_ animated: Bool) { log.add("\(name) willDisappear\(animated ? "" : " (not animated)")") }
    override func viewDidDisappear(_ animated: Bool) { log.add("\(name) didDisappear") }
}

/// The window drawn at scale 2, as the screen would show it now.
@MainActor
func snapshot(of window: UIWindow) -> CGImage {
    let format = UIGraphicsImageRendererFormat()
    format.scale = 2
    return UIGraphicsImageRenderer(size: window.bounds.size, format: format).image { context in
        window.layer.render(in: context.cgContext)
    }.cgImage!
}

/// The scene of the page sheets' reference pictures: a 200×400 window
/// (screen safe area 20 at the top) whose root controller shows a light
/// blue view under a dark 64-point bar, and a white controller to present,
/// with a blue block 168×40 at `blockTop` points from its top.
@MainActor
func makeSheetPictureScene(blockTop: CGFloat) -> (window: UIWindow, root: UIViewController, presented: UIViewController) {
    let root = UIViewController()
    let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 200, height: 400))
    window.rootViewController = root
    window.backgroundColor = .black
    UIScreen.main.bounds = window.frame
    UIScreen.main.safeAreaInsets = UIEdgeInsets(top: 20, left: 0, bottom: 0, right: 0)
    root.view.backgroundColor = UIColor(red: 0.6, green: 0.8, blue: 1, alpha: 1)
    let bar = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 64))
    bar.backgroundColor = UIColor(white: 0.3, alpha: 1)
    root.view.addSubview(bar)
    let presented = UIViewController()
    presented.view.backgroundColor = .white
    let block = UIView(frame: CGRect(x: 16, y: blockTop, width: 168, height: 40))
    block.backgroundColor = .blue
    presented.view.addSubview(block)
    return (window, root, presented)
}
