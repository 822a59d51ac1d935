package dev.ctk.fake.internal.patch;

import static dev.ctk.fake.internal.patch.Json.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JsonMergePatchTest {

  /** RFC 7386 appendix A (the cases with an object patch), then Kubernetes-shaped cases. */
  static Stream<Arguments> merged() {
    return Stream.of(
        arguments("RFC 7386 A: replace a member", "{a: 'b'}", "{a: 'c'}", "{a: 'c'}"),
        arguments("RFC 7386 A: add a member", "{a: 'b'}", "{b: 'c'}", "{a: 'b', b: 'c'}"),
        arguments("RFC 7386 A: null removes the only member", "{a: 'b'}", "{a: null}", "{}"),
        arguments("RFC 7386 A: null removes one member", "{a: 'b', b: 'c'}", "{a: null}", "{b: 'c'}"),
        arguments("RFC 7386 A: a scalar replaces a list", "{a: ['b']}", "{a: 'c'}", "{a: 'c'}"),
        arguments("RFC 7386 A: a list replaces a scalar", "{a: 'c'}", "{a: ['b']}", "{a: ['b']}"),
        arguments("RFC 7386 A: nested merge with removal", "{a: {b: 'c'}}", "{a: {b: 'd', c: null}}", "{a: {b: 'd'}}"),
        arguments("RFC 7386 A: a list replaces a list", "{a: [{b: 'c'}]}", "{a: [1]}", "{a: [1]}"),
        arguments("RFC 7386 A: null members of the target stay", "{e: null}", "{a: 1}", "{e: null, a: 1}"),
        arguments("RFC 7386 A: a list target becomes an object", "[1, 2]", "{a: 'b', c: null}", "{a: 'b'}"),
        arguments("RFC 7386 A: new objects lose their null members", "{}", "{a: {bb: {ccc: null}}}", "{a: {bb: {}}}"),
        arguments("an empty patch changes nothing", "{a: {b: 1}}", "{}", "{a: {b: 1}}"),
        arguments("labels: set one, remove one, keep one",
            "{metadata: {name: 'web', labels: {app: 'web', tier: 'fe', team: 'a'}}}",
            "{metadata: {labels: {tier: 'be', team: null}}}",
            "{metadata: {name: 'web', labels: {app: 'web', tier: 'be'}}}"),
        arguments("containers are replaced as a whole list",
            "{spec: {containers: [{name: 'web', image: 'nginx:1.25'}, {name: 'sidecar', image: 'envoy'}]}}",
            "{spec: {containers: [{name: 'web', image: 'nginx:1.27'}]}}",
            "{spec: {containers: [{name: 'web', image: 'nginx:1.27'}]}}"),
        arguments("null inside a new list element is dropped, as kube's library does",
            "{spec: {}}", "{spec: {containers: [{name: 'web', image: null}]}}",
            "{spec: {containers: [{name: 'web'}]}}"),
        arguments("a member whose stored value is null is replaced", "{status: null}",
            "{status: {phase: 'Running', reason: null}}", "{status: {phase: 'Running'}}"),
        arguments("removing a missing member is a no-op", "{a: 1}", "{b: null}", "{a: 1}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("merged")
  void merges(String description, String target, String patch, String expected) {
    // WHEN
    JsonNode patched = JsonMergePatch.apply(json(target), json(patch));
    // THEN
    assertThat(patched).isEqualTo(json(expected));
  }

  /** RFC 7386 lets a non-object patch replace the document; kube decodes patches into a map and answers 400. */
  static Stream<Arguments> rejected() {
    String prefix = "error decoding patch: json: cannot unmarshal ";
    String suffix = " into Go value of type map[string]interface {}";
    return Stream.of(
        arguments("RFC 7386 A: a list patch", "['c', 'd']", prefix + "array" + suffix),
        arguments("RFC 7386 A: a string patch", "'bar'", prefix + "string" + suffix),
        arguments("a number patch", "5", prefix + "number" + suffix),
        arguments("a boolean patch", "true", prefix + "bool" + suffix),
        arguments("RFC 7386 A: a null patch", "null", "Invalid JSON Patch"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rejected")
  void rejects_patches_that_are_not_objects(String description, String patch, String message) {
    // WHEN
    PatchException e = catchThrowableOfType(PatchException.class, () -> JsonMergePatch.apply(json("{a: 'b'}"), json(patch)));
    // THEN
    assertThat(e).as("expected a PatchException").isNotNull();
    assertThat(e.code()).isEqualTo(400);
    assertThat(e.reason()).isEqualTo("BadRequest");
    assertThat(e.getMessage()).isEqualTo(message);
    assertThat(e.causeMessage()).isNull();
  }

  @Test
  void never_mutates_the_target_or_the_patch() {
    // GIVEN
    JsonNode target = json("{metadata: {labels: {app: 'web'}}, spec: {replicas: 1}}");
    JsonNode patch = json("{metadata: {labels: {app: null, tier: 'fe'}}, spec: {template: {x: {y: null}}}}");
    JsonNode targetBefore = target.deepCopy();
    JsonNode patchBefore = patch.deepCopy();
    // WHEN
    JsonNode patched = JsonMergePatch.apply(target, patch);
    // THEN
    assertThat(patched).isEqualTo(json("{metadata: {labels: {tier: 'fe'}}, spec: {replicas: 1, template: {x: {}}}}"));
    assertThat(target).isEqualTo(targetBefore);
    assertThat(patch).isEqualTo(patchBefore);
  }
}
