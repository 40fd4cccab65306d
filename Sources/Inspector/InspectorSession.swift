import Foundation
import HID
import UIKit

/// The inspector's session with its page, on the main actor: it shows the
/// page what it inspects, live, and turns the page's clicks and drags into
/// touches that take the application's real path.
///
/// It inspects either
/// - a scene it runs itself (`openuikit inspect SCENE`): the application's
///   steps come from an ``InspectionFeed`` in this process, frames from its
///   own compositor, and the page's touches go to the application's input
///   port, the way a touch screen's frames arrive; or
/// - an application on the event server (`openuikit inspect --attach`):
///   the application's own feed answers through the server, frames come
///   from the server's display, and touches go to the server as input
///   (``AttachedApplication``).
///
/// One page is live at a time: a page that connects takes over from the one
/// before (a reload connects before the old page's socket closes), whose
/// fingers are lifted as cancelled and which is told why it stopped.
@MainActor
public final class InspectorSession {
    /// A hierarchy the page can switch to.
    public struct Scene: Sendable {
        public let name: String
        public let summary: String
        /// Makes the scene's key window, its views in it.
        public let makeWindow: @MainActor @Sendable () throws -> UIWindow

        public init(name: String, summary: String, makeWindow: @escaping @MainActor @Sendable () throws -> UIWindow) {
            self.name = name
            self.summary = summary
            self.makeWindow = makeWindow
        }
    }

    /// What the session sends a page.
    public enum Outgoing: Sendable, Equatable {
        case text(String)
        /// A frame of the screen, as PNG.
        case frame(Data)
        /// The session is done with this page, for the reason given.
        case close(String)
    }

    public let scenes: [Scene]
    public private(set) var sceneName: String
    private let application = UIApplication.shared
    /// The application on the event server, when attached to one.
    private let attached: AttachedApplication?
    /// The scene's window and what draws it, when running a scene.
    private var window: UIWindow?
    private var compositor: LayerCompositor?
    /// The scene's steps and tree, when running a scene.
    private var feed: InspectionFeed?
    /// The page that is live, and how to reach it.
    private var page: (id: Int, send: @Sendable (Outgoing) -> Void)?
    private var nextPageID = 1
    /// Whether the page still has to say it showed the last frame sent:
    /// frames are not queued behind a slow page, the next one is drawn
    /// once it has.
    private var frameAwaitingPage = false
    private var screenChanged = true
    private var fingers = PageFingers()
    /// Why the event server can no longer be reached, once it cannot.
    public private(set) var serverProblem: String?

    /// How long the last tree took to describe and how many views it had.
    public var lastTreeMeasurement: (views: Int, milliseconds: Double)? { feed?.lastTreeMeasurement }

    /// Starts `initialScene` (one of `scenes`).
    public init(scenes: [Scene], initialScene: String) throws {
        precondition(!scenes.isEmpty, "the inspector needs a scene to show")
        self.scenes = scenes
        sceneName = initialScene
        attached = nil
        let feed = InspectionFeed(windows: { [unowned self] in window.map { [$0] } ?? [] }) { [unowned self] text in
            if page != nil { send(.text(text)) }
        }
        feed.afterCommit = { [unowned self] in
            screenChanged = true
            if !frameAwaitingPage { sendFrameIfChanged() }
        }
        self.feed = feed
        feed.start()
        try show(initialScene)
    }

    /// Inspects an application through the event server at `serverPath`:
    /// the one called `applicationName`, or the one in front when it is empty.
    public init(attachingTo applicationName: String, serverPath: String) throws {
        let application = try AttachedApplication(serverPath: serverPath, applicationName: applicationName)
        attached = application
        scenes = []
        sceneName = applicationName.isEmpty ? "the application in front" : applicationName
    }

    /// Watches the event server's socket, when attached, from the main
    /// queue (which the application's run loop drains): what arrives goes
    /// to the page, and `onDisconnect` is called with the reason if the
    /// server goes away.
    public func readServerOnMainQueue(onDisconnect: @escaping @MainActor @Sendable (String) -> Void) {
        guard let attached, serverSource == nil else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: attached.fileDescriptor, queue: .main)
        source.setEventHandler { [unowned self] in
            MainActor.assumeIsolated {
                receiveFromServer()
                if let serverProblem {
                    serverSource?.cancel()
                    onDisconnect(serverProblem)
                }
            }
        }
        source.resume()
        serverSource = source
    }

    private var serverSource: (any DispatchSourceRead)?

    /// The event server's socket, when attached: readable when
    /// ``receiveFromServer()`` has something to take (for tests that read it themselves).
    package var serverDescriptor: Int32? { attached?.fileDescriptor }

    // MARK: The scene

    /// Replaces the scene on the screen with `name`'s.
    func show(_ name: String) throws {
        guard attached == nil else {
            throw InspectorError("the inspector is attached to an application on the event server: it has no scenes to switch to")
        }
        guard let scene = scenes.first(where: { $0.name == name }) else {
            throw InspectorError("no scene named \"\(name)\"; known: \(scenes.map(\.name).joined(separator: ", "))")
        }
        liftAllFingers()
        window?.isHidden = true
        window = nil
        let newWindow = try scene.makeWindow()
        newWindow.makeKeyAndVisible()
        window = newWindow
        sceneName = name
        feed?.reset()
        let screen = UIScreen.main.bounds
        // Frames go to the page at one pixel per point (FramePicture).
        compositor = try LayerCompositor(
            rootLayer: newWindow.layer, pixelWidth: Int(screen.width.rounded(.up)),
            pixelHeight: Int(screen.height.rounded(.up)), scale: 1)
        compositor?.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        screenChanged = true
        if page != nil { sendWelcome() }
    }

    // MARK: Pages

    /// A page connected: it becomes the live one. Returns its number.
    public func connect(send: @escaping @Sendable (Outgoing) -> Void) -> Int {
        if let old = page {
            liftAllFingers()
            old.send(.text(InspectionFeed.errorMessage("another page connected to the inspector; this one is no longer live (reload it to take over)")))
            old.send(.close("replaced by a newer page"))
        }
        let id = nextPageID
        nextPageID += 1
        page = (id, send)
        frameAwaitingPage = false
        screenChanged = true
        sendWelcome()
        return id
    }

    /// The page's socket closed: its fingers are lifted as cancelled, as
    /// when a touch screen goes away mid-gesture.
    public func disconnect(_ id: Int) {
        guard page?.id == id else { return }
        liftAllFingers()
        page = nil
    }

    /// A text message from page `id`. Malformed messages get an error
    /// message back and change nothing.
    public func receive(_ text: String, from id: Int) {
        guard page?.id == id else { return }
        do {
            let message = try InspectorMessage(parsing: text)
            try handle(message)
        } catch let error as InspectorError {
            send(.text(InspectionFeed.errorMessage(error.message)))
        } catch {
            send(.text(InspectionFeed.errorMessage("\(error)")))
        }
    }

    /// A binary message from page `id`: the page sends none.
    public func receiveBinary(byteCount: Int, from id: Int) {
        guard page?.id == id else { return }
        send(.text(InspectionFeed.errorMessage("the inspector takes text messages only; a binary one of \(byteCount) bytes was ignored")))
    }

    private func handle(_ message: InspectorMessage) throws {
        switch message {
        case .touch(let pointer, let phase, let location):
            deliver(try fingers.frame(pointer: pointer, phase: phase, at: location))
        case .scene(let name):
            try show(name)
        case .frameShown:
            frameAwaitingPage = false
            if let attached {
                try attached.requestFrame()
            } else {
                sendFrameIfChanged()
            }
        case .tree:
            if let attached { try attached.requestTree() } else { feed?.sendTree() }
        }
    }

    private func send(_ outgoing: Outgoing) {
        page?.send(outgoing)
    }

    private func sendWelcome() {
        let screen = attached?.screenSize ?? UIScreen.main.bounds.size
        let sceneList: [String]
        if attached != nil {
            sceneList = ["{\"name\":\(json(sceneName)),\"summary\":\(json("an application on the event server"))}"]
        } else {
            sceneList = scenes.map { "{\"name\":\(json($0.name)),\"summary\":\(json($0.summary))}" }
        }
        send(.text("{\"type\":\"hello\",\"scene\":\(json(sceneName)),\"scenes\":[\(sceneList.joined(separator: ","))],"
            + "\"screen\":{\"width\":\(TraceJSONEncoder.number(Double(screen.width))),\"height\":\(TraceJSONEncoder.number(Double(screen.height)))}}"))
        if let attached {
            // Attaching again restarts the application's feed: it describes
            // its tree and draws a whole frame, which the server sends.
            do {
                try attached.attachAgain()
                try attached.requestFrame()
            } catch {
                send(.text(InspectionFeed.errorMessage("\(error)")))
            }
        } else {
            feed?.sendTree()
            sendFrameIfChanged()
        }
    }

    // MARK: Touches from the page

    /// Sends a frame of `contacts`: to the server as input when attached,
    /// else to the input port, which the run loop takes in its next pass,
    /// after this main-actor job (the trace of what it did goes to the page
    /// once the event source has delivered it).
    private func deliver(_ contacts: [DigitizerContact]) {
        if let attached {
            do {
                try attached.inject(contacts)
            } catch {
                send(.text(InspectionFeed.errorMessage("\(error)")))
            }
        } else {
            application.inputPort.send(.digitizer(DigitizerFrame(timestamp: application.runLoop.clock.now, contacts: contacts)))
        }
    }

    /// Lifts every finger of the page, as cancelled.
    private func liftAllFingers() {
        if let contacts = fingers.liftAll() { deliver(contacts) }
    }

    // MARK: The application on the event server

    /// Takes what the event server sent, when attached: the application's
    /// texts and frames go to the page.
    public func receiveFromServer() {
        guard let attached else { return }
        for arrival in attached.receive() {
            switch arrival {
            case .attached(let name, let pid):
                send(.text("{\"type\":\"status\",\"message\":\(json("attached to \"\(name)\" (pid \(pid)) on the event server"))}"))
            case .text(let text):
                send(.text(text))
            case .frame(let png):
                guard page != nil else { continue }
                frameAwaitingPage = true
                send(.frame(png))
            case .problem(let why):
                send(.text(InspectionFeed.errorMessage(why)))
            case .detached(let why):
                send(.text(InspectionFeed.errorMessage("not attached: \(why) (reload the page to attach again)")))
            case .disconnected(let why):
                serverProblem = why
                send(.text(InspectionFeed.errorMessage(why)))
            }
        }
    }

    // MARK: Frames of the scene

    private func sendFrameIfChanged() {
        guard page != nil, screenChanged, !frameAwaitingPage, let compositor, let window else { return }
        compositor.setRootLayers([window.layer])
        compositor.renderFrame()
        let png = compositor.withUnsafeBytes { bytes in
            FramePicture.png(width: compositor.pixelWidth, height: compositor.pixelHeight) { destination in
                destination.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            }
        }
        guard let png else {
            send(.text(InspectionFeed.errorMessage("the frame could not be drawn")))
            return
        }
        screenChanged = false
        frameAwaitingPage = true
        send(.frame(png))
    }

    private func json(_ text: String) -> String { TraceJSONEncoder.string(text) }
}

/// A problem with what the page asked, told back to it.
struct InspectorError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
