import SceneFile
import TestExpectations
import Testing
@testable import OpenUIKitCommands

/// Reading scene files: what a good file becomes, and the line, column,
/// field and sentence each kind of bad file gets.
@Suite struct SceneFileTests {
    func read(_ text: String) throws -> Scene { try Scene.read(Array(text.utf8)) }

    func error(_ text: String) -> SceneFileError? {
        do {
            _ = try Scene.read(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func anEmptySceneHasTheDefaultScreen() throws {
        let scene = try read("{}")
        #expect(scene.width == 390 && scene.height == 844 && scene.scale == 3)
        expectEqual(scene.backgroundColor, .named("white"))
        #expect(scene.views.isEmpty)
    }

    @Test func everyFieldOfAViewIsRead() throws {
        let scene = try read("""
            {
              "size": [200, 100], "scale": 2, "backgroundColor": "#102030",
              "views": [
                { "type": "label", "name": "title", "frame": [1, 2.5, 30, 40], "backgroundColor": "#F00",
                  "alpha": 0.5, "hidden": true, "clipsToBounds": true, "cornerRadius": 4,
                  "maskedCorners": ["topLeft", "bottomRight"], "borderWidth": 2, "borderColor": "#00FF0080",
                  "shadow": { "color": "blue", "opacity": 0.25, "offset": [1, -2], "radius": 5,
                              "path": { "rect": [0, 30, 30, 10], "cornerRadius": 5 } },
                  "transform": { "rotation": 90, "scale": [2, 3], "translation": [4, 5] },
                  "contentMode": "center", "text": "Hi \\u00e9\\ud83d\\ude00", "font": { "size": 20, "weight": "bold" },
                  "textColor": "#1234", "textAlignment": "center", "numberOfLines": 2,
                  "subviews": [ { "frame": [0, 0, 1, 1] } ],
                  "mask": { "frame": [2, 3, 4, 5], "backgroundColor": "black", "cornerRadius": 2,
                            "subviews": [ { "frame": [0, 0, 1, 1] } ] } }
              ]
            }
            """)
        #expect(scene.width == 200 && scene.height == 100 && scene.scale == 2)
        let background: SceneColor = .rgba(16.0 / 255, 32.0 / 255, 48.0 / 255, 1)
        expectEqual(scene.backgroundColor, background)
        let label = try #require(scene.views.first)
        expectEqual(label.kind, .label)
        expectEqual(label.frame, SceneRect(x: 1, y: 2.5, width: 30, height: 40))
        expectEqual(label.backgroundColor, SceneColor.rgba(1, 0, 0, 1))
        #expect(label.alpha == 0.5 && label.isHidden && label.clipsToBounds && label.cornerRadius == 4)
        expectEqual(label.maskedCorners, ["topLeft", "bottomRight"])
        let borderColor: SceneColor = .rgba(0, 1, 0, 128.0 / 255)
        #expect(label.borderWidth == 2 && label.borderColor == borderColor)
        #expect(label.shadow == {
            var s = SceneShadow(); s.color = .named("blue"); s.opacity = 0.25; s.offsetX = 1; s.offsetY = -2; s.radius = 5
            s.pathRect = SceneRect(x: 0, y: 30, width: 30, height: 10); s.pathCornerRadius = 5; return s
        }())
        #expect(label.transform?.rotationDegrees == 90 && label.transform?.scaleX == 2 && label.transform?.scaleY == 3)
        #expect(label.transform?.translationX == 4 && label.transform?.translationY == 5)
        expectEqual(label.contentMode, "center")
        expectEqual(label.text, "Hi é😀")
        #expect(label.fontSize == 20 && label.fontWeight == "bold")
        let textColor: SceneColor = .rgba(1.0 / 15, 2.0 / 15, 3.0 / 15, 4.0 / 15)
        expectEqual(label.textColor, textColor)
        #expect(label.textAlignment == "center" && label.numberOfLines == 2)
        #expect(label.subviews.count == 1 && label.subviews[0].kind == .view)
        expectEqual(label.subviews[0].field, "views[0].subviews[0]")
        let mask = try #require(label.mask)
        #expect(mask.frame == SceneRect(x: 2, y: 3, width: 4, height: 5) && mask.cornerRadius == 2)
        #expect(mask.field == "views[0].mask" && mask.subviews.count == 1 && mask.mask == nil)
    }

    @Test func controlsAndScrollViewsReadTheirOwnFields() throws {
        let scene = try read("""
            { "views": [
              { "type": "button", "frame": [0, 0, 10, 10], "title": "OK", "buttonType": "custom", "enabled": false,
                "titleColor": "systemBlue", "tintColor": "#0F0" },
              { "type": "switch", "frame": [0, 0, 10, 10], "on": true },
              { "type": "slider", "frame": [0, 0, 10, 10], "minimumValue": -1, "maximumValue": 3, "value": 2 },
              { "type": "scrollView", "frame": [0, 0, 10, 10], "contentSize": [10, 500], "contentOffset": [0, 40] },
              { "type": "imageView", "frame": [0, 0, 10, 10], "image": "photo.png" }
            ] }
            """)
        let (button, toggle, slider, scroll, image) = (scene.views[0], scene.views[1], scene.views[2], scene.views[3], scene.views[4])
        #expect(button.text == "OK" && button.buttonType == "custom" && !button.isEnabled)
        #expect(button.textColor == .named("systemBlue") && button.tintColor == SceneColor.rgba(0, 1, 0, 1))
        #expect(toggle.isOn)
        #expect(slider.minimumValue == -1 && slider.maximumValue == 3 && slider.value == 2)
        #expect(scroll.contentWidth == 10 && scroll.contentHeight == 500 && scroll.contentOffsetY == 40)
        expectEqual(image.imagePath, "photo.png")
        expectEqual(image.imagePosition, SourcePosition(line: 7, column: 60))
    }

    // MARK: Syntax errors: the line and column of the fault

    @Test(arguments: [
        ("{\n  \"views\": [],\n}", 3, 1, "expected a key in quotes, found '}'"),
        ("{\"size\": [1, 2}", 1, 15, "expected ',' or ']' in an array, found '}'"),
        ("{\"a\" 1}", 1, 6, "expected ':' after the key \"a\", found '1'"),
        ("{\n\"name\": \"abc", 2, 9, "unterminated string"),
        ("{\"n\": \"a\nb\"}", 1, 9, "unterminated string (a line ends inside it)"),
        ("{\"n\": \"\\x\"}", 1, 9, "unknown escape \\'x'"),
        ("{\"n\": \"\\ud800\"}", 1, 14, "a \\u escape of a lone high surrogate"),
        ("{\"scale\": 1e999}", 1, 11, "the number 1e999 is beyond the range of a double"),
        ("{\"scale\": 01}", 1, 11, "a number may not start with 0 followed by digits"),
        ("{\"scale\": 1.}", 1, 13, "expected a digit after the decimal point"),
        ("{\"scale\": NaN}", 1, 11, "expected a value, found 'N'"),
        ("{\"scale\": -Infinity}", 1, 12, "expected a digit after '-'"),
        ("{} {}", 1, 4, "unexpected '{' after the end of the document"),
        ("", 1, 1, "expected a value, found the end of the file"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "the key \"a\" appears twice in this object"),
        ("{\"a\": tru}", 1, 7, "expected a value, found 't'"),
    ])
    func syntaxErrorsSayWhereAndWhat(text: String, line: Int, column: Int, message: String) throws {
        let failure = try #require(error(text))
        expectEqual(failure.position, SourcePosition(line: line, column: column))
        expectEqual(failure.field, "")
        expectEqual(failure.message, message)
    }

    @Test func aHugeNumberIsNotEchoedWhole() throws {
        let digits = "9" + String(repeating: "0", count: 199_999)
        let failure = try #require(error("{\"scale\": \(digits)}"))
        expectEqual(failure.message, "the number 90000000000000000000…0000000000 (200000 characters) is beyond the range of a double")
    }

    @Test func invalidUTF8InAStringIsRefused() throws {
        var bytes = Array("{\"name\": \"".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\"}".utf8)
        #expect(throws: SceneFileError(position: SourcePosition(line: 1, column: 10), field: "", message: "a string that is not valid UTF-8")) {
            _ = try Scene.read(bytes)
        }
    }

    @Test func nestingDeeperThanTheLimitIsRefusedWithoutExhaustingTheStack() throws {
        let deep = String(repeating: "[", count: 100_000)
        let failure = try #require(error(deep))
        expectEqual(failure.message, "nested deeper than \(JSONReader.maximumDepth) levels")
        expectEqual(failure.position, SourcePosition(line: 1, column: JSONReader.maximumDepth + 1))
    }

    // MARK: Field errors: the field at fault, where it is

    @Test(arguments: [
        ("{\"views\": [{\"frame\": [1, 2, 3]}]}", 1, 22, "views[0].frame", "expected [x, y, width, height], 4 numbers"),
        ("{\"views\": [{\"frame\": [1, 2, -3, 4]}]}", 1, 22, "views[0].frame", "the width and height must not be negative"),
        ("{\"views\": [{\"frame\": [1, 2, 3, \"4\"]}]}", 1, 32, "views[0].frame[3]", "expected a number, found the string \"4\""),
        ("{\"views\": [{\"frame\": [1e7, 0, 1, 1]}]}", 1, 23, "views[0].frame[0]", "10000000 is outside -1000000…1000000"),
        ("{\"views\": [{}]}", 1, 12, "views[0]", "a view needs a \"frame\": [x, y, width, height]"),
        ("{\"views\": [{\"frame\": [0, 0, 1, 1],\n  \"colour\": \"red\"}]}", 2, 3, "views[0].colour",
         "unknown key \"colour\" for a view of type \"view\"; known: type, name, frame, backgroundColor, alpha, hidden, clipsToBounds, cornerRadius, maskedCorners, borderWidth, borderColor, shadow, transform, contentMode, tintColor, subviews, mask"),
        ("{\"views\": [{\"frame\": [0, 0, 1, 1], \"text\": \"a\"}]}", 1, 36, "views[0].text",
         "unknown key \"text\" for a view of type \"view\"; known: type, name, frame, backgroundColor, alpha, hidden, clipsToBounds, cornerRadius, maskedCorners, borderWidth, borderColor, shadow, transform, contentMode, tintColor, subviews, mask"),
        ("{\"views\": [{\"type\": \"table\", \"frame\": [0, 0, 1, 1]}]}", 1, 21, "views[0].type",
         "unknown view type \"table\"; known: view, label, button, switch, slider, imageView, scrollView"),
        ("{\"views\": [{\"frame\": [0, 0, 1, 1], \"alpha\": 1.5}]}", 1, 45, "views[0].alpha", "1.5 is outside 0…1"),
        ("{\"views\": [{\"frame\": [0, 0, 1, 1], \"hidden\": 1}]}", 1, 46, "views[0].hidden", "expected true or false, found a number"),
        ("{\"views\": [{\"frame\": [0, 0, 1, 1], \"backgroundColor\": \"#12345\"}]}", 1, 55, "views[0].backgroundColor",
         "\"#12345\" is not a colour: write #RGB, #RGBA, #RRGGBB or #RRGGBBAA, or a UIColor name (\(SceneColor.names.joined(separator: ", ")))"),
        ("{\"views\": [{\"type\": \"label\", \"frame\": [0, 0, 1, 1], \"font\": {\"textStyle\": \"body\", \"size\": 3}}]}", 1, 61, "views[0].font",
         "give either a \"textStyle\" or a \"size\" and \"weight\", not both"),
        ("{\"views\": [{\"type\": \"label\", \"frame\": [0, 0, 1, 1], \"font\": {\"size\": 0}}]}", 1, 70, "views[0].font.size", "a font size must be greater than 0"),
        ("{\"views\": [{\"type\": \"label\", \"frame\": [0, 0, 1, 1], \"numberOfLines\": 1.5}]}", 1, 70, "views[0].numberOfLines", "expected a whole number, found 1.5"),
        ("{\"views\": [{\"frame\": [0, 0, 1, 1], \"subviews\": [{\"frame\": [0, 0, 1, 1], \"maskedCorners\": [\"top\"]}]}]}", 1, 91,
         "views[0].subviews[0].maskedCorners[0]", "unknown value \"top\"; known: topLeft, topRight, bottomLeft, bottomRight"),
        ("{\"views\": [{\"frame\": [0, 0, 1, 1], \"shadow\": {\"path\": {\"cornerRadius\": 2}}}]}", 1, 55, "views[0].shadow.path",
         "a shadow path needs a \"rect\": [x, y, width, height]"),
        ("{\"views\": [{\"frame\": [0, 0, 1, 1], \"mask\": {\"frame\": [0, 0, 1]}}]}", 1, 54, "views[0].mask.frame", "expected [x, y, width, height], 4 numbers"),
        ("{\"views\": [{\"frame\": [0, 0, 1, 1], \"mask\": [{\"frame\": [0, 0, 1, 1]}]}]}", 1, 44, "views[0].mask", "expected an object, found an array"),
        ("{\"size\": [0, 10]}", 1, 10, "size", "the width and height must be greater than 0"),
        ("{\"scale\": 0}", 1, 11, "scale", "the scale must be greater than 0"),
        ("{\"scale\": 11}", 1, 11, "scale", "11 is outside 0…10"),
        ("{\"views\": {}}", 1, 11, "views", "expected an array of views"),
        ("[]", 1, 1, "", "expected an object, found an array"),
    ])
    func fieldErrorsNameTheFieldAndItsLine(text: String, line: Int, column: Int, field: String, message: String) throws {
        let failure = try #require(error(text))
        expectEqual(failure.position, SourcePosition(line: line, column: column))
        expectEqual(failure.field, field)
        expectEqual(failure.message, message)
    }

    @Test func moreViewsThanTheLimitAreRefused() throws {
        let view = "{\"frame\": [0, 0, 1, 1]}"
        let text = "{\"views\": [" + Array(repeating: view, count: Scene.maximumViewCount + 1).joined(separator: ",") + "]}"
        let failure = try #require(error(text))
        expectEqual(failure.field, "views[\(Scene.maximumViewCount)]")
        expectEqual(failure.message, "more than \(Scene.maximumViewCount) views in one scene")
        #expect(try read("{\"views\": [" + Array(repeating: view, count: Scene.maximumViewCount).joined(separator: ",") + "]}")
            .views.count == Scene.maximumViewCount)
    }

    @Test func theErrorReadsAsFileLineColumnFieldMessage() {
        let failure = SceneFileError(position: SourcePosition(line: 3, column: 14), field: "views[0].frame", message: "expected …")
        expectEqual(failure.description, "3:14: views[0].frame: expected …")
        expectEqual(SceneFileError(position: SourcePosition(line: 1, column: 2), field: "", message: "m").description, "1:2: m")
    }

    /// Every name resolves (an unknown one stops the process), to the colour of that name.
    @MainActor @Test func everyColourNameIsUIColorsColour() {
        let colors = SceneColor.names.map(SceneRenderer.namedColor)
        expectEqual(Set(colors).count, colors.count - 1)  // systemBackground is white
        expectEqual(SceneRenderer.namedColor("systemBlue"), .systemBlue)
        expectEqual(SceneRenderer.namedColor("red"), .red)
        expectEqual(SceneRenderer.namedColor("lightGray"), .lightGray)
        expectEqual(SceneRenderer.namedColor("clear"), .clear)
    }

    @Test func everyBuiltInPictureIsAValidSceneFile() throws {
        for entry in BuiltInScenes.all {
            let scene = try read(entry.json)
            #expect(!scene.views.isEmpty, "\(entry.name)")
        }
    }
}
