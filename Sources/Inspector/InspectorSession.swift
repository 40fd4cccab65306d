import Foundation
import HID
import UIKit

/// The application's side of the inspector, on the main actor: it runs the
/// scene being inspected, watches every step of its events through
/// `UIApplication.traceHandler`, draws its frames, describes its view tree,
/// and turns the page's clicks and drags into touches on the application's
/// input port, the way a touch screen's frames arrive.
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
    private var window: UIWindow?
    private var compositor: LayerCompositor?
    /// Names every object in trace records and the tree with one number.
    private var encoder = TraceJSONEncoder()
    /// The page that is live, and how to reach it.
    private var page: (id: Int, send: @Sendable (Outgoing) -> Void)?
    private var nextPageID = 1
    /// Whether the page still has to say it showed the last frame sent:
    /// frames are not queued behind a slow page, the next one is drawn
    /// once it has.
    private var frameAwaitingPage = false
    private var screenChanged = true
    /// The page's fingers on the screen, by the page's pointer number, with
    /// the finger identifier the input port knows each by.
    private var fingers: [Int: UInt32] = [:]
    private var nextFinger: UInt32 = 1
    /// Trace records not yet sent, as JSON; at most `maximumPendingRecords`.
    private var pendingRecords: [String] = []
    private var droppedRecords = 0
    static let maximumPendingRecords = 50_000
    /// The touches bound since the last flush, whose responder chains go with the records.
    private var boundTouches: [(touch: Int, view: UIView)] = []
    /// How long the last tree took to describe and how many views it had.
    public private(set) var lastTreeMeasurement: (views: Int, milliseconds: Double)?

    /// Starts `initialScene` (one of `scenes`).
    public init(scenes: [Scene], initialScene: String) throws {
        precondition(!scenes.isEmpty, "the inspector needs a scene to show")
        self.scenes = scenes
        sceneName = initialScene
        application.traceHandler = { [unowned self] record in self.traced(record) }
        application.didCommit = { [unowned self] in self.committed() }
        application.didHandleEvents = { [unowned self] in self.flushAfterEvents() }
        try show(initialScene)
    }

    // MARK: The scene

    /// Replaces the scene on the screen with `name`'s.
    func show(_ name: String) throws {
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
        encoder = TraceJSONEncoder()
        pendingRecords = []
        boundTouches = []
        let screen = UIScreen.main.bounds
        // Frames go to the page at one pixel per point: the picture is for
        // seeing, and a smaller PNG keeps the page live.
        compositor = try LayerCompositor(
            rootLayer: newWindow.layer, pixelWidth: Int(screen.width.rounded(.up)),
            pixelHeight: Int(screen.height.rounded(.up)), scale: 1)
        compositor?.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        screenChanged = true
        treeIsStale = true
        if page != nil { sendWelcome() }
    }

    /// Whether the tree changed since it was last sent (a new scene, whose
    /// first layout is at the end of the turn).
    private var treeIsStale = true

    // MARK: Pages

    /// A page connected: it becomes the live one. Returns its number.
    public func connect(send: @escaping @Sendable (Outgoing) -> Void) -> Int {
        if let old = page {
            liftAllFingers()
            old.send(.text(Self.errorMessage("another page connected to the inspector; this one is no longer live (reload it to take over)")))
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
            send(.text(Self.errorMessage(error.message)))
        } catch {
            send(.text(Self.errorMessage("\(error)")))
        }
    }

    /// A binary message from page `id`: the page sends none.
    public func receiveBinary(byteCount: Int, from id: Int) {
        guard page?.id == id else { return }
        send(.text(Self.errorMessage("the inspector takes text messages only; a binary one of \(byteCount) bytes was ignored")))
    }

    private func handle(_ message: InspectorMessage) throws {
        switch message {
        case .touch(let pointer, let phase, let location):
            try touch(pointer: pointer, phase: phase, at: location)
        case .scene(let name):
            try show(name)
        case .frameShown:
            frameAwaitingPage = false
            sendFrameIfChanged()
        case .tree:
            sendTree()
        }
    }

    private func send(_ outgoing: Outgoing) {
        page?.send(outgoing)
    }

    private func sendWelcome() {
        let screen = UIScreen.main.bounds
        let sceneList = scenes.map { "{\"name\":\(json($0.name)),\"summary\":\(json($0.summary))}" }
        send(.text("{\"type\":\"hello\",\"scene\":\(json(sceneName)),\"scenes\":[\(sceneList.joined(separator: ","))],"
            + "\"screen\":{\"width\":\(TraceJSONEncoder.number(Double(screen.width))),\"height\":\(TraceJSONEncoder.number(Double(screen.height)))}}"))
        sendTree()
        sendFrameIfChanged()
    }

    // MARK: Touches from the page

    /// A finger of the page's pointer `pointer` in `phase` at `location`
    /// (screen points): one digitizer frame to the input port, carrying
    /// every finger of the page, the others stationary, as a touch screen
    /// reports.
    private func touch(pointer: Int, phase: DigitizerContact.Phase, at location: CGPoint) throws {
        guard location.x.isFinite, location.y.isFinite else {
            throw InspectorError("a touch needs finite coordinates")
        }
        let finger: UInt32
        switch phase {
        case .began:
            guard fingers[pointer] == nil else { throw InspectorError("pointer \(pointer) is already down") }
            finger = nextFinger
            nextFinger &+= 1
            fingers[pointer] = finger
        default:
            guard let down = fingers[pointer] else {
                // A page reloaded mid-gesture sends the rest of a drag it
                // never began here: nothing is down for it.
                throw InspectorError("pointer \(pointer) is not down (was the page reloaded mid-gesture?); its \(phase) was ignored")
            }
            finger = down
            if phase == .ended || phase == .cancelled { fingers[pointer] = nil }
        }
        var contacts = [DigitizerContact(identifier: finger, phase: phase, x: location.x, y: location.y)]
        for (_, other) in fingers where other != finger {
            if let last = lastLocations[other] {
                contacts.append(DigitizerContact(identifier: other, phase: .stationary, x: last.x, y: last.y))
            }
        }
        lastLocations[finger] = phase == .ended || phase == .cancelled ? nil : location
        deliver(contacts)
    }

    private var lastLocations: [UInt32: CGPoint] = [:]

    /// Sends a frame of `contacts` to the input port. The run loop takes it
    /// in its next pass, after this main-actor job; the trace of what it did
    /// goes to the page once the event source has delivered it.
    private func deliver(_ contacts: [DigitizerContact]) {
        application.inputPort.send(.digitizer(DigitizerFrame(timestamp: application.runLoop.clock.now, contacts: contacts)))
        if fingers.isEmpty { treeIsStale = true }
    }

    /// What the events left to send: their records, and the tree once no
    /// finger is down.
    func flushAfterEvents() {
        flushRecords()
        if treeIsStale && fingers.isEmpty { sendTree() }
    }

    /// Lifts every finger of the page, as cancelled.
    private func liftAllFingers() {
        guard !fingers.isEmpty else { return }
        var contacts: [DigitizerContact] = []
        for (_, finger) in fingers {
            let last = lastLocations[finger] ?? .zero
            contacts.append(DigitizerContact(identifier: finger, phase: .cancelled, x: last.x, y: last.y))
        }
        fingers = [:]
        lastLocations = [:]
        deliver(contacts)
    }

    // MARK: What the application does

    private func traced(_ record: TraceRecord) {
        if case .touchBound(let view?, _) = record.step, let touch = record.touchIDs.first {
            boundTouches.append((touch, view))
        }
        guard page != nil else { return }
        if pendingRecords.count < Self.maximumPendingRecords {
            pendingRecords.append(encoder.encode(record))
        } else {
            droppedRecords += 1
        }
    }

    private func committed() {
        screenChanged = true
        if !frameAwaitingPage { sendFrameIfChanged() }
        flushRecords()
        if treeIsStale && fingers.isEmpty { sendTree() }
    }

    /// Sends the trace records gathered since the last flush, with the
    /// responder chain of each touch bound meanwhile.
    private func flushRecords() {
        guard page != nil else {
            pendingRecords = []
            boundTouches = []
            return
        }
        for (touch, view) in boundTouches {
            var chain: [String] = []
            var responder: UIResponder? = view
            while let current = responder, chain.count < 1_000 {
                chain.append(encoder.object(current))
                responder = current.next
            }
            send(.text("{\"type\":\"chain\",\"touch\":\(touch),\"chain\":[\(chain.joined(separator: ","))]}"))
        }
        boundTouches = []
        guard !pendingRecords.isEmpty || droppedRecords > 0 else { return }
        send(.text("{\"type\":\"trace\",\"dropped\":\(droppedRecords),\"records\":[\(pendingRecords.joined(separator: ","))]}"))
        pendingRecords = []
        droppedRecords = 0
    }

    private func sendFrameIfChanged() {
        guard page != nil, screenChanged, !frameAwaitingPage, let compositor, let window else { return }
        compositor.setRootLayers([window.layer])
        compositor.renderFrame()
        let width = compositor.pixelWidth, height = compositor.pixelHeight
        let image = compositor.withUnsafeBytes { bytes in
            CGImage(width: width, height: height) { buffer in
                buffer.base.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            }
        }
        guard let image, let png = try? image.pngData() else {
            send(.text(Self.errorMessage("the frame could not be drawn")))
            return
        }
        screenChanged = false
        frameAwaitingPage = true
        send(.frame(png))
    }

    /// Describes the view tree to the page.
    func sendTree() {
        guard page != nil, let window else { return }
        treeIsStale = false
        let start = DispatchTime.now().uptimeNanoseconds
        let description = ViewTreeDescription.json(of: window, encoder: encoder)
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
        lastTreeMeasurement = (description.viewCount, milliseconds)
        send(.text("{\"type\":\"tree\",\"viewCount\":\(description.viewCount),\"milliseconds\":\(TraceJSONEncoder.number(milliseconds)),\"views\":\(description.json)}"))
    }

    static func errorMessage(_ text: String) -> String {
        "{\"type\":\"error\",\"message\":\(TraceJSONEncoder.string(text))}"
    }

    private func json(_ text: String) -> String { TraceJSONEncoder.string(text) }
}

/// A problem with what the page asked, told back to it.
struct InspectorError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
