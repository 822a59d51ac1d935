package dev.ctk.fake.internal.patch;

import static dev.ctk.fake.internal.patch.Json.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JsonPatchTest {

  /** RFC 6902 appendix A, then the kube (json-patch v4) behaviours a client can observe. */
  static Stream<Arguments> applied() {
    return Stream.of(
        arguments("A.1 add an object member", "{foo: 'bar'}",
            "[{op: 'add', path: '/baz', value: 'qux'}]", "{baz: 'qux', foo: 'bar'}"),
        arguments("A.2 add an array element", "{foo: ['bar', 'baz']}",
            "[{op: 'add', path: '/foo/1', value: 'qux'}]", "{foo: ['bar', 'qux', 'baz']}"),
        arguments("A.3 remove an object member", "{baz: 'qux', foo: 'bar'}",
            "[{op: 'remove', path: '/baz'}]", "{foo: 'bar'}"),
        arguments("A.4 remove an array element", "{foo: ['bar', 'qux', 'baz']}",
            "[{op: 'remove', path: '/foo/1'}]", "{foo: ['bar', 'baz']}"),
        arguments("A.5 replace a value", "{baz: 'qux', foo: 'bar'}",
            "[{op: 'replace', path: '/baz', value: 'boo'}]", "{baz: 'boo', foo: 'bar'}"),
        arguments("A.6 move a value", "{foo: {bar: 'baz', waldo: 'fred'}, qux: {corge: 'grault'}}",
            "[{op: 'move', from: '/foo/waldo', path: '/qux/thud'}]",
            "{foo: {bar: 'baz'}, qux: {corge: 'grault', thud: 'fred'}}"),
        arguments("A.7 move an array element", "{foo: ['all', 'grass', 'cows', 'eat']}",
            "[{op: 'move', from: '/foo/1', path: '/foo/3'}]", "{foo: ['all', 'cows', 'eat', 'grass']}"),
        arguments("A.8 test a value: success", "{baz: 'qux', foo: ['a', 2, 'c']}",
            "[{op: 'test', path: '/baz', value: 'qux'}, {op: 'test', path: '/foo/1', value: 2}]",
            "{baz: 'qux', foo: ['a', 2, 'c']}"),
        arguments("A.10 add a nested member object", "{foo: 'bar'}",
            "[{op: 'add', path: '/child', value: {grandchild: {}}}]", "{foo: 'bar', child: {grandchild: {}}}"),
        arguments("A.11 ignore unrecognized elements", "{foo: 'bar'}",
            "[{op: 'add', path: '/baz', value: 'qux', xyz: 123}]", "{foo: 'bar', baz: 'qux'}"),
        arguments("A.14 ~ escape ordering", "{'/': 9, '~1': 10}",
            "[{op: 'test', path: '/~01', value: 10}]", "{'/': 9, '~1': 10}"),
        arguments("A.16 add an array value", "{foo: ['bar']}",
            "[{op: 'add', path: '/foo/-', value: ['abc', 'def']}]", "{foo: ['bar', ['abc', 'def']]}"),
        arguments("~1 escapes a slash in a label key", "{metadata: {labels: {'app.kubernetes.io/name': 'web'}}}",
            "[{op: 'replace', path: '/metadata/labels/app.kubernetes.io~1name', value: 'api'}]",
            "{metadata: {labels: {'app.kubernetes.io/name': 'api'}}}"),
        arguments("replace a Deployment's replicas after testing them", "{spec: {replicas: 1}}",
            "[{op: 'test', path: '/spec/replicas', value: 1}, {op: 'replace', path: '/spec/replicas', value: 3}]",
            "{spec: {replicas: 3}}"),
        arguments("add to an existing member overwrites it", "{metadata: {labels: {app: 'web'}}}",
            "[{op: 'add', path: '/metadata/labels', value: {tier: 'db'}}]", "{metadata: {labels: {tier: 'db'}}}"),
        arguments("operations apply in order", "{a: []}",
            "[{op: 'add', path: '/a/-', value: 1}, {op: 'add', path: '/a/0', value: 0}, {op: 'copy', from: '/a', path: '/b'}]",
            "{a: [0, 1], b: [0, 1]}"),
        arguments("kube: a negative index counts from the end (add)", "{a: [1, 2]}",
            "[{op: 'add', path: '/a/-1', value: 9}]", "{a: [1, 2, 9]}"),
        arguments("kube: a negative index counts from the end (remove)", "{a: [1, 2, 3]}",
            "[{op: 'remove', path: '/a/-1'}]", "{a: [1, 2]}"),
        arguments("kube: a negative index counts from the end (replace)", "{a: [1, 2, 3]}",
            "[{op: 'replace', path: '/a/-3', value: 0}]", "{a: [0, 2, 3]}"),
        arguments("kube: replace of a missing member adds it", "{metadata: {}}",
            "[{op: 'replace', path: '/metadata/labels', value: {app: 'web'}}]", "{metadata: {labels: {app: 'web'}}}"),
        arguments("kube: copy from a missing member writes null", "{a: {}}",
            "[{op: 'copy', from: '/a/missing', path: '/b'}]", "{a: {}, b: null}"),
        arguments("kube: add without a value writes null", "{a: 1}",
            "[{op: 'add', path: '/b'}]", "{a: 1, b: null}"),
        arguments("kube: the first segment of a relative path is ignored", "{a: 1}",
            "[{op: 'add', path: 'ignored/b', value: 2}]", "{a: 1, b: 2}"),
        arguments("kube: test of a missing member against null passes", "{a: 1}",
            "[{op: 'test', path: '/b', value: null}]", "{a: 1}"),
        arguments("whole-document test and replace", "{a: 1}",
            "[{op: 'test', path: '', value: {a: 1}}, {op: 'replace', path: '', value: {b: 2}}]", "{b: 2}"),
        arguments("kube: whole-document replace with a scalar does nothing", "{a: 1}",
            "[{op: 'replace', path: '', value: 5}]", "{a: 1}"),
        arguments("a null patch changes nothing", "{a: 1}", "null", "{a: 1}"),
        arguments("an empty patch changes nothing", "{a: 1}", "[]", "{a: 1}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("applied")
  void applies(String description, String target, String patch, String expected) {
    // WHEN
    JsonNode patched = JsonPatch.apply(json(target), json(patch));
    // THEN
    assertThat(patched).isEqualTo(json(expected));
  }

  /** Failures: HTTP code, Status reason, Status message and the cause kube puts in details.causes. */
  static Stream<Arguments> rejected() {
    String generic = "the server rejected our request due to an error in our request";
    return Stream.of(
        arguments("A.9 test a value: error", "{baz: 'qux'}", "[{op: 'test', path: '/baz', value: 'bar'}]",
            422, "Invalid", generic, "testing value /baz failed: test failed"),
        arguments("A.12 add to a nonexistent target", "{foo: 'bar'}", "[{op: 'add', path: '/baz/bat', value: 'qux'}]",
            422, "Invalid", generic, "add operation does not apply: doc is missing path: \"/baz/bat\": missing value"),
        arguments("A.15 comparing strings and numbers", "{'/': 9, '~1': 10}", "[{op: 'test', path: '/~01', value: '10'}]",
            422, "Invalid", generic, "testing value /~01 failed: test failed"),
        arguments("ints and decimals never compare equal", "{spec: {replicas: 1}}",
            "[{op: 'test', path: '/spec/replicas', value: 1.0}]",
            422, "Invalid", generic, "testing value /spec/replicas failed: test failed"),
        arguments("test of a missing member", "{a: 1}", "[{op: 'test', path: '/b', value: 1}]",
            422, "Invalid", generic, "testing value /b failed: test failed"),
        arguments("remove a missing member", "{metadata: {labels: {}}}", "[{op: 'remove', path: '/metadata/labels/app'}]",
            422, "Invalid", generic,
            "error in remove for path: '/metadata/labels/app': Unable to remove nonexistent key: app: missing value"),
        arguments("remove below a missing member", "{metadata: {}}", "[{op: 'remove', path: '/metadata/labels/app'}]",
            422, "Invalid", generic,
            "remove operation does not apply: doc is missing path: \"/metadata/labels/app\": missing value"),
        arguments("remove past the end of a list", "{a: [1]}", "[{op: 'remove', path: '/a/1'}]",
            422, "Invalid", generic,
            "error in remove for path: '/a/1': Unable to access invalid index: 1: invalid index referenced"),
        arguments("remove with the append index", "{a: [1]}", "[{op: 'remove', path: '/a/-'}]",
            422, "Invalid", generic, "error in remove for path: '/a/-': strconv.Atoi: parsing \"-\": invalid syntax"),
        arguments("add past the end of a list", "{a: [1]}", "[{op: 'add', path: '/a/3', value: 2}]",
            422, "Invalid", generic,
            "error in add for path: '/a/3': Unable to access invalid index: 3: invalid index referenced"),
        arguments("add with an index that is not a number", "{a: [1]}", "[{op: 'add', path: '/a/x', value: 2}]",
            422, "Invalid", generic,
            "error in add for path: '/a/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax"),
        arguments("replace past the end of a list", "{a: [1]}", "[{op: 'replace', path: '/a/5', value: 2}]",
            422, "Invalid", generic, "replace operation does not apply: doc is missing key: /a/5: missing value"),
        arguments("replace below a missing member", "{}", "[{op: 'replace', path: '/spec/replicas', value: 2}]",
            422, "Invalid", generic, "replace operation does not apply: doc is missing path: /spec/replicas: missing value"),
        arguments("move from a missing member", "{a: {}}", "[{op: 'move', from: '/a/b', path: '/c'}]",
            422, "Invalid", generic, "error in move for path: 'b': Unable to remove nonexistent key: b: missing value"),
        arguments("move to a missing parent", "{a: 1}", "[{op: 'move', from: '/a', path: '/x/y'}]",
            422, "Invalid", generic, "move operation does not apply: doc is missing destination path: /x/y: missing value"),
        arguments("copy to a missing parent", "{a: 1}", "[{op: 'copy', from: '/a', path: '/x/y'}]",
            422, "Invalid", generic, "copy operation does not apply: doc is missing destination path: /x/y: missing value"),
        arguments("an unknown op", "{a: 1}", "[{op: 'merge', path: '/a', value: 2}]",
            422, "Invalid", generic, "Unexpected kind: merge"),
        arguments("an operation without op", "{a: 1}", "[{path: '/a', value: 2}]",
            422, "Invalid", generic, "Unexpected kind: unknown"),
        arguments("add without path", "{a: 1}", "[{op: 'add', value: 2}]",
            422, "Invalid", generic, "add operation failed to decode path: missing value"),
        arguments("replace without path", "{a: 1}", "[{op: 'replace', value: 2}]",
            422, "Invalid", generic, "replace operation failed to decode path: operation missing path field: missing value"),
        arguments("move without from", "{a: 1}", "[{op: 'move', path: '/b'}]",
            422, "Invalid", generic, "move operation failed to decode from: operation, missing from field: missing value"),
        arguments("copy without from", "{a: 1}", "[{op: 'copy', path: '/b'}]",
            422, "Invalid", generic, "copy operation failed to decode from: operation, missing from field: missing value"),
        arguments("a patch that is an object", "{a: 1}", "{op: 'add', path: '/b', value: 2}",
            400, "BadRequest",
            "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp", null),
        arguments("an operation that is not an object", "{a: 1}", "['add']",
            400, "BadRequest",
            "error decoding patch: json: cannot unmarshal string into Go value of type handlers.jsonPatchOp", null),
        arguments("a path that is not a string", "{a: 1}", "[{op: 'add', path: 5, value: 2}]",
            400, "BadRequest",
            "error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.path of type string", null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rejected")
  void rejects(String description, String target, String patch, int code, String reason, String message, String cause) {
    // WHEN
    PatchException e = catchThrowableOfType(PatchException.class, () -> JsonPatch.apply(json(target), json(patch)));
    // THEN
    assertThat(e).as("expected a PatchException").isNotNull();
    assertThat(e.code()).isEqualTo(code);
    assertThat(e.reason()).isEqualTo(reason);
    assertThat(e.getMessage()).isEqualTo(message);
    assertThat(e.causeMessage()).isEqualTo(cause);
  }

  @Test
  void rejects_more_than_10000_operations_with_413() {
    // GIVEN
    ArrayNode patch = JsonNodeFactory.instance.arrayNode();
    for (int i = 0; i < 10001; i++) {
      patch.add(json("{op: 'test', path: '/a', value: 1}"));
    }
    // WHEN
    PatchException e = catchThrowableOfType(PatchException.class, () -> JsonPatch.apply(json("{a: 1}"), patch));
    // THEN
    assertThat(e.code()).isEqualTo(413);
    assertThat(e.reason()).isEqualTo("RequestEntityTooLarge");
    assertThat(e.getMessage())
        .isEqualTo("Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001");
  }

  @Test
  void accepts_exactly_10000_operations() {
    // GIVEN
    ArrayNode patch = JsonNodeFactory.instance.arrayNode();
    for (int i = 0; i < 10000; i++) {
      patch.add(json("{op: 'add', path: '/a/-', value: " + i + "}"));
    }
    // WHEN
    JsonNode patched = JsonPatch.apply(json("{a: []}"), patch);
    // THEN
    assertThat(patched.get("a").size()).isEqualTo(10000);
    assertThat(patched.get("a").get(9999).intValue()).isEqualTo(9999);
  }

  @Test
  void never_mutates_the_target_even_when_a_later_operation_fails() {
    // GIVEN
    JsonNode target = json("{metadata: {name: 'web', labels: {app: 'web'}}}");
    JsonNode before = target.deepCopy();
    JsonNode patch = json("[{op: 'remove', path: '/metadata/labels/app'}, {op: 'test', path: '/metadata/name', value: 'api'}]");
    // WHEN
    catchThrowableOfType(PatchException.class, () -> JsonPatch.apply(target, patch));
    JsonPatch.apply(target, json("[{op: 'remove', path: '/metadata/labels'}]"));
    // THEN
    assertThat(target).isEqualTo(before);
  }

  @Test
  void copies_are_independent_of_their_source() {
    // WHEN
    JsonNode patched = JsonPatch.apply(json("{a: {x: 1}}"),
        json("[{op: 'copy', from: '/a', path: '/b'}, {op: 'replace', path: '/b/x', value: 2}]"));
    // THEN
    assertThat(patched).isEqualTo(json("{a: {x: 1}, b: {x: 2}}"));
  }
}
