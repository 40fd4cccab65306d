// Fuzz target: the scene file reader (Scene.read), outside input to
// `openuikit render`.
//
// Checked beyond not crashing: an error points inside the file (a line
// that exists, a column within it or just past its end) and names a field
// only for a document that is valid JSON; a scene that reads has values
// within the documented limits.
import SceneFile

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let scene = try Scene.read(bytes)
        precondition(scene.width > 0 && scene.height > 0 && scene.width <= Scene.maximumCoordinate, "a bad size was read")
        precondition(scene.scale > 0 && scene.scale <= Scene.maximumScale, "a bad scale was read")
        var count = 0
        func check(_ view: SceneView) {
            count += 1
            let f = view.frame
            precondition([f.x, f.y, f.width, f.height].allSatisfy { $0.isFinite && abs($0) <= Scene.maximumCoordinate }, "a bad frame was read")
            precondition(f.width >= 0 && f.height >= 0, "a negative size was read")
            precondition((0...1).contains(view.alpha), "a bad alpha was read")
            view.subviews.forEach(check)
        }
        scene.views.forEach(check)
        precondition(count <= Scene.maximumViewCount, "more views than the limit were read")
    } catch {
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        precondition(error.position.line >= 1 && error.position.line <= lines.count, "an error on a line the file does not have")
        let line = lines[error.position.line - 1]
        // A BOM on the first line is counted in its columns.
        precondition(error.position.column >= 1 && error.position.column <= line.count + 1, "an error past the end of its line")
        if !error.field.isEmpty {
            precondition((try? JSONReader.read(bytes)) != nil, "a field error in a document that is not JSON")
        }
    }
    return 0
}
