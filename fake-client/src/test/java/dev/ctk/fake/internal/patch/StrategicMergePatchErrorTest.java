package dev.ctk.fake.internal.patch;

import static dev.ctk.fake.internal.patch.Json.json;
import static dev.ctk.fake.internal.patch.Objects.STORED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Strategic merge patches kube-apiserver refuses, with its status code, reason and message. kube
 * answers 400 for malformed directives, 422 for a list of lists, and 500 with an empty reason for
 * the errors it does not classify (kubectl shows those as "Error from server: ...").
 */
class StrategicMergePatchErrorTest {

  static Stream<Arguments> rejected() {
    String containers = "{spec: {template: {spec: {containers: %s}}}}";
    return Stream.of(
        arguments("a patch that is not an object", "Deployment", "[{op: 'add'}]",
            400, "BadRequest", "json: cannot unmarshal array into Go value of type map[string]interface {}", null),
        arguments("$retainKeys that is not a list", "Deployment", "{spec: {strategy: {'$retainKeys': 'type', type: 'Recreate'}}}",
            400, "BadRequest", "invalid patch format of retainKeys", null),
        arguments("$retainKeys that omits a key the patch sets", "Deployment",
            "{spec: {strategy: {'$retainKeys': ['type'], type: 'RollingUpdate', rollingUpdate: {maxSurge: 1}}}}",
            400, "BadRequest", "invalid patch format of retainKeys", null),
        arguments("$setElementOrder without a field", "Deployment", "{metadata: {'$setElementOrder': ['a']}}",
            400, "BadRequest", "invalid patch format of setElementOrder list", null),
        arguments("$deleteFromPrimitiveList without a field", "Deployment", "{metadata: {'$deleteFromPrimitiveList': ['a']}}",
            400, "BadRequest", "invalid patch format of primitive list", null),
        arguments("a list of lists", "Pod", "{metadata: {finalizers: [['a']]}}",
            422, "Invalid", PatchException.REJECTED, "lists of lists are not supported"),
        arguments("$patch: merge on a map", "Deployment", "{metadata: {labels: {'$patch': 'merge', a: 'b'}}}",
            500, "", "unknown patch type: merge in map: map[$patch:merge a:b]", null),
        arguments("an unknown $patch value on a map", "Deployment", "{spec: {selector: {'$patch': 'drop'}}}",
            500, "", "unknown patch type: drop in map: map[$patch:drop]", null),
        arguments("a $patch value that is not a string", "Deployment", "{metadata: {labels: {'$patch': 1.5}}}",
            500, "", "unknown patch type: %!s(float64=1.5) in map: map[$patch:1.5]", null),
        arguments("$patch: merge in a list", "Deployment", containers.formatted("[{name: 'web', '$patch': 'merge'}]"),
            500, "", "merging lists cannot yet be specified in the patch", null),
        arguments("an unknown $patch value in a list", "Deployment", containers.formatted("[{name: 'web', '$patch': 'remove'}]"),
            500, "", "unknown patch type: remove in map: map[$patch:remove name:web]", null),
        arguments("a container without its merge key", "Deployment", containers.formatted("[{image: 'nginx:1.27'}]"),
            500, "", "map: map[image:nginx:1.27] does not contain declared merge key: name", null),
        arguments("$patch: delete without the merge key", "Deployment", containers.formatted("[{'$patch': 'delete', image: 'x'}]"),
            500, "", "map: map[$patch:delete image:x] does not contain declared merge key: name", null),
        arguments("a container port keyed like a Service port", "Deployment",
            containers.formatted("[{name: 'web', ports: [{port: 80, targetPort: 8080}]}]"),
            500, "", "map: map[port:80 targetPort:8080] does not contain declared merge key: containerPort", null),
        arguments("a list mixing strings and numbers", "Deployment", "{metadata: {finalizers: [1]}}",
            500, "", "list element types are not identical: [[a.example.com/x] [1]]", null),
        arguments("objects in a list of primitives", "Pod", "{metadata: {finalizers: [{a: 1}]}}",
            500, "", "cannot merge lists without merge key for string", null),
        arguments("$setElementOrder that is not a list", "Deployment", "{metadata: {'$setElementOrder/finalizers': 'x'}}",
            500, "", "expected a []interface {}, but received a string", null),
        arguments("$setElementOrder in another order than the patch list", "Deployment",
            "{spec: {template: {spec: {'$setElementOrder/containers': [{name: 'web'}, {name: 'sidecar'}],"
                + " containers: [{name: 'sidecar', image: 'e2'}, {name: 'web', image: 'n2'}]}}}}",
            500, "", "the order in patch list:\n[map[image:e2 name:sidecar] map[image:n2 name:web]]\n"
                + " doesn't match $setElementOrder list:\n[map[name:web] map[name:sidecar]]", null),
        arguments("$setElementOrder item without the merge key", "Deployment",
            "{spec: {template: {spec: {'$setElementOrder/containers': [{image: 'x'}], containers: [{name: 'web'}]}}}}",
            500, "", "map: map[image:x] does not contain declared merge key: name", null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rejected")
  void rejects(String description, String kind, String patch, int code, String reason, String message, String cause) {
    // GIVEN
    String group = kind.equals("Deployment") ? "apps" : "";
    // WHEN
    PatchException e = catchThrowableOfType(PatchException.class,
        () -> StrategicMergePatch.apply(STORED.get(kind), json(patch), PatchSchema.forType(kind)));
    // THEN
    assertThat(e).as("expected a PatchException").isNotNull();
    assertThat(e.code()).isEqualTo(code);
    assertThat(e.reason()).isEqualTo(reason);
    assertThat(e.getMessage()).isEqualTo(message);
    assertThat(e.causeMessage()).isEqualTo(cause);
  }
}
