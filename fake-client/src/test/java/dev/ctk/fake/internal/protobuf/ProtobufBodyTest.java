package dev.ctk.fake.internal.protobuf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import com.google.protobuf.UnknownFieldSet;
import dev.ctk.fake.internal.registry.BuiltinKinds;
import dev.ctk.fake.internal.status.ApiError;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Resource;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Certificates;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Protobuf bodies decoded into kube's JSON. The {@code kubectl-1.32} fixtures are what kubectl v1.32.4 sent for
 * {@code kubectl create ...} ({@code -v=9} prints the request body) beside what it prints for the same command with
 * {@code --dry-run=client -o json}: Go's JSON of the same object, which the decoded body must equal to the byte.
 */
class ProtobufBodyTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MAY_1_2024_10H = 1714557600L;

  @ParameterizedTest
  @ValueSource(strings = {"namespace", "configmap", "secret-generic", "secret-docker-registry",
      "deployment-replicas-0", "deployment-two-images", "service-clusterip", "service-nodeport",
      "service-externalname", "job", "cronjob", "role", "rolebinding", "clusterrole", "clusterrolebinding", "quota",
      "priorityclass", "poddisruptionbudget", "ingress", "serviceaccount"})
  void kubectlCreateBody_decodesToTheJsonKubectlPrintsForTheSameObject(String name) throws IOException {
    byte[] body = HexFormat.of().parseHex(resource(name + ".hex").strip());
    String kubectlJson = JSON.writeValueAsString(JSON.readTree(resource(name + ".json")));

    assertThat(JSON.writeValueAsString(ProtobufBody.decode(body))).isEqualTo(kubectlJson);
  }

  @Test
  void podParts_inlinedStructsQuantitiesIntOrStringsTimesAndKeptZeros() throws IOException {
    V1.Container container = V1.Container.newBuilder().setName("main").setImage("nginx:1").setWorkingDir("")
        .setStdin(false)
        .addEnv(V1.EnvVar.newBuilder().setName("PASSWORD").setValueFrom(V1.EnvVarSource.newBuilder()
            .setSecretKeyRef(V1.SecretKeySelector.newBuilder().setLocalObjectReference(
                V1.LocalObjectReference.newBuilder().setName("creds")).setKey("password"))))
        .setResources(V1.ResourceRequirements.newBuilder()
            .putLimits("cpu", Resource.Quantity.newBuilder().setString("500m").build())
            .putLimits("memory", Resource.Quantity.newBuilder().setString("1Gi").build()))
        .setLivenessProbe(V1.Probe.newBuilder().setHandler(V1.ProbeHandler.newBuilder().setHttpGet(
            V1.HTTPGetAction.newBuilder().setPath("/healthz").setPort(IntStr.IntOrString.newBuilder().setType(1)
                .setStrVal("http")))).setPeriodSeconds(10).setTimeoutSeconds(0))
        .setSecurityContext(V1.SecurityContext.newBuilder().setRunAsUser(0))
        .build();
    V1.Pod pod = V1.Pod.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("web").setGeneration(0)
            .setCreationTimestamp(Meta.Time.newBuilder().setSeconds(MAY_1_2024_10H).setNanos(999))
            .addManagedFields(Meta.ManagedFieldsEntry.newBuilder().setManager("kubectl").setOperation("Update")
                .setTime(Meta.Time.newBuilder().setSeconds(MAY_1_2024_10H)).setFieldsType("FieldsV1")
                .setFieldsV1(Meta.FieldsV1.newBuilder().setRaw(ByteString.copyFromUtf8("{\"f:spec\":{}}")))))
        .setSpec(V1.PodSpec.newBuilder().addContainers(container).setTerminationGracePeriodSeconds(0)
            .setHostNetwork(false)
            .addVolumes(V1.Volume.newBuilder().setName("config").setVolumeSource(V1.VolumeSource.newBuilder()
                .setConfigMap(V1.ConfigMapVolumeSource.newBuilder().setLocalObjectReference(
                    V1.LocalObjectReference.newBuilder().setName("app")).setDefaultMode(0)))))
        .build();

    assertThat(decoded("v1", "Pod", pod)).isEqualTo("""
        {"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","creationTimestamp":"2024-05-01T10:00:00Z",\
        "managedFields":[{"manager":"kubectl","operation":"Update","time":"2024-05-01T10:00:00Z",\
        "fieldsType":"FieldsV1","fieldsV1":{"f:spec":{}}}]},\
        "spec":{"volumes":[{"name":"config","configMap":{"name":"app","defaultMode":0}}],\
        "containers":[{"name":"main","image":"nginx:1","env":[{"name":"PASSWORD","valueFrom":{"secretKeyRef":\
        {"name":"creds","key":"password"}}}],"resources":{"limits":{"cpu":"500m","memory":"1Gi"}},\
        "livenessProbe":{"httpGet":{"path":"/healthz","port":"http"},"periodSeconds":10},\
        "securityContext":{"runAsUser":0}}],"terminationGracePeriodSeconds":0}}""");
  }

  @Test
  void eventTimes_microTimeToTheMicrosecond_zeroTimeIsNull() throws IOException {
    V1.Event event = V1.Event.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("web.1").setNamespace("default"))
        .setReason("Started").setCount(2)
        .setFirstTimestamp(Meta.Time.newBuilder().setSeconds(MAY_1_2024_10H))
        .setLastTimestamp(Meta.Time.getDefaultInstance())
        .setEventTime(Meta.MicroTime.newBuilder().setSeconds(MAY_1_2024_10H).setNanos(123_456_789))
        .build();

    assertThat(decoded("v1", "Event", event)).isEqualTo("""
        {"kind":"Event","apiVersion":"v1","metadata":{"name":"web.1","namespace":"default"},"reason":"Started",\
        "firstTimestamp":"2024-05-01T10:00:00Z","lastTimestamp":null,"count":2,\
        "eventTime":"2024-05-01T10:00:00.123456Z"}""");
  }

  @Test
  void rawExtension_isTheJsonItHolds_int64IsANumber() throws IOException {
    V1Apps.ControllerRevision revision = V1Apps.ControllerRevision.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("web-1"))
        .setData(Runtime.RawExtension.newBuilder().setRaw(ByteString.copyFromUtf8("{\"spec\":{\"x\":1}}")))
        .setRevision(3_000_000_000L)
        .build();

    assertThat(decoded("apps/v1", "ControllerRevision", revision)).isEqualTo("""
        {"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"web-1"},"data":{"spec":{"x":1}},\
        "revision":3000000000}""");
  }

  @Test
  void bytesAreBase64_extraValuesAreStringLists() throws IOException {
    V1Certificates.CertificateSigningRequest request = V1Certificates.CertificateSigningRequest.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("alice"))
        .setSpec(V1Certificates.CertificateSigningRequestSpec.newBuilder()
            .setRequest(ByteString.copyFrom(new byte[] {1, 2, (byte) 0xff}))
            .setSignerName("kubernetes.io/kube-apiserver-client")
            .putExtra("scopes", V1Certificates.ExtraValue.newBuilder().addItems("a").addItems("b").build()))
        .build();

    assertThat(decoded("certificates.k8s.io/v1", "CertificateSigningRequest", request)).isEqualTo("""
        {"kind":"CertificateSigningRequest","apiVersion":"certificates.k8s.io/v1","metadata":{"name":"alice"},\
        "spec":{"request":"AQL/","signerName":"kubernetes.io/kube-apiserver-client","extra":{"scopes":["a","b"]}}}""");
  }

  @Test
  void deleteOptions_keepAZeroGracePeriod() throws IOException {
    Meta.DeleteOptions options = Meta.DeleteOptions.newBuilder().setGracePeriodSeconds(0)
        .setPreconditions(Meta.Preconditions.newBuilder().setResourceVersion("7"))
        .setPropagationPolicy("Foreground").build();

    assertThat(decoded("v1", "DeleteOptions", options)).isEqualTo("""
        {"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":0,"preconditions":{"resourceVersion":"7"},\
        "propagationPolicy":"Foreground"}""");
  }

  @Test
  void unknownFieldHoldingZero_isIgnored_asKubesJsonWouldOmitIt() throws IOException {
    V1.Namespace namespace = V1.Namespace.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("demo"))
        .setSpec(V1.NamespaceSpec.newBuilder().setUnknownFields(UnknownFieldSet.newBuilder()
            .addField(99, UnknownFieldSet.Field.newBuilder().addVarint(0).build())
            .addField(98, UnknownFieldSet.Field.newBuilder().addLengthDelimited(ByteString.EMPTY).build())
            .addField(97, UnknownFieldSet.Field.newBuilder().addLengthDelimited(ByteString.copyFrom(
                new byte[] {0x0a, 0x00})).build())
            .build()))
        .build();

    assertThat(decoded("v1", "Namespace", namespace))
        .isEqualTo("{\"kind\":\"Namespace\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"demo\"},\"spec\":{}}");
  }

  @Test
  void unknownFieldWithAValue_isRefused_namingTheFieldAndWhereItIs() {
    V1.Namespace namespace = V1.Namespace.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("demo"))
        .setSpec(V1.NamespaceSpec.newBuilder().setUnknownFields(UnknownFieldSet.newBuilder()
            .addField(99, UnknownFieldSet.Field.newBuilder().addVarint(5).build()).build()))
        .build();

    assertRefused(envelope("v1", "Namespace", namespace.toByteString(), ""), 415, "UnsupportedMediaType",
        "ctk's fake API server cannot decode this v1 Namespace from application/vnd.kubernetes.protobuf: field "
            + "number 99 of k8s.io.api.core.v1.NamespaceSpec (at spec) is not in the protobuf schema of "
            + "io.kubernetes:client-java-proto, so it would be lost. Send the object as application/json (for kubectl "
            + "create: kubectl create ... --dry-run=client -o yaml | kubectl apply -f -)");
  }

  @Test
  void jsonBody_isNotAnEnvelope() {
    assertRefused("{\"kind\":\"ConfigMap\"}".getBytes(StandardCharsets.UTF_8), 400, "BadRequest",
        "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] but the body starts "
            + "with [123 34 107 105]: send kube's envelope (the bytes \"k8s\\x00\", then a runtime.Unknown message) "
            + "as application/vnd.kubernetes.protobuf, or the object as application/json");
  }

  @Test
  void truncatedEnvelope_isRefused() {
    assertRefused(new byte[] {'k', '8', 's', 0, 0x0a, 0x0f, 0x0a}, 400, "BadRequest",
        "the protobuf envelope is not a runtime.Unknown message after its \"k8s\\x00\" prefix (While parsing a "
            + "protocol message, the input ended unexpectedly in the middle of a field.  This could mean either that "
            + "the input has been truncated or that an embedded message misreported its own length.): send kube's "
            + "envelope as application/vnd.kubernetes.protobuf, or the object as application/json");
  }

  @Test
  void envelopeWithoutKind_isRefused() {
    assertRefused(envelope("v1", "", ByteString.EMPTY, ""), 400, "BadRequest",
        "Object 'Kind' is missing in the protobuf envelope: its runtime.Unknown typeMeta has apiVersion \"v1\" and "
            + "kind \"\"; set both, e.g. apiVersion \"v1\" and kind \"ConfigMap\"");
  }

  @Test
  void contentEncoding_isRefused() {
    assertRefused(envelope("v1", "ConfigMap", ByteString.EMPTY, "gzip"), 415, "UnsupportedMediaType",
        "the protobuf envelope of this v1 ConfigMap has contentEncoding \"gzip\": ctk's fake API server reads raw "
            + "bytes without an encoding, as kube's clients send them; leave contentEncoding empty");
  }

  @Test
  void customResource_isRefusedAsKubeRefusesIt() {
    assertRefused(envelope("example.com/v1", "Widget", ByteString.EMPTY, ""), 415, "UnsupportedMediaType",
        "the body of the request was in an unknown format - accepted media types include: application/json, "
            + "application/yaml (example.com/v1 Widget is not a built-in kind: kube-apiserver decodes custom "
            + "resources from JSON or YAML only; send it as application/json)");
    assertThat(ProtobufBody.refuseCustomResource("widgets.example.com").getMessage()).isEqualTo(
        "the body of the request was in an unknown format - accepted media types include: application/json, "
            + "application/yaml (widgets.example.com is a custom resource: kube-apiserver decodes custom resources "
            + "from JSON or YAML only; send it as application/json)");
  }

  @Test
  void builtinKindWithoutAMessageInClientJavaProto_isRefused_sayingToSendJson() {
    assertRefused(envelope("coordination.k8s.io/v1", "Lease", ByteString.EMPTY, ""), 415, "UnsupportedMediaType",
        "ctk's fake API server cannot decode coordination.k8s.io/v1 Lease from application/vnd.kubernetes.protobuf: "
            + "io.kubernetes:client-java-proto has no message for it. Send it as application/json (for a client-go "
            + "client: rest.Config.ContentType = \"application/json\")");
    assertRefused(envelope("v1", "PodSpec", ByteString.EMPTY, ""), 415, "UnsupportedMediaType",
        "ctk's fake API server cannot decode v1 PodSpec from application/vnd.kubernetes.protobuf: "
            + "io.kubernetes:client-java-proto has no message for it. Send it as application/json (for a client-go "
            + "client: rest.Config.ContentType = \"application/json\")");
  }

  @Test
  void rawBytesThatAreNotTheKindsMessage_areRefused() {
    assertRefused(envelope("v1", "ConfigMap", ByteString.copyFrom(new byte[] {0x0a, 0x05, 0x01}), ""), 400,
        "BadRequest", "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: the raw bytes of the protobuf "
            + "envelope are not a k8s.io.api.core.v1.ConfigMap message (While parsing a protocol message, the input "
            + "ended unexpectedly in the middle of a field.  This could mean either that the input has been "
            + "truncated or that an embedded message misreported its own length.)");
  }

  @Test
  void rawExtensionThatIsNotJson_isRefused() {
    V1Apps.ControllerRevision revision = V1Apps.ControllerRevision.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("web-1"))
        .setData(Runtime.RawExtension.newBuilder().setRaw(ByteString.copyFromUtf8("spec: {}"))).build();

    assertRefused(envelope("apps/v1", "ControllerRevision", revision.toByteString(), ""), 400, "BadRequest",
        "the raw bytes at data in the protobuf body are neither JSON nor a protobuf envelope: Unrecognized token "
            + "'spec': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false'). Put the "
            + "embedded object there as JSON, as kubectl and client-go do");
  }

  @Test
  void builtinKindsTheFakeServes_allDecode_butTheFiveClientJavaProtoLacks() {
    assertThat(BuiltinKinds.all().stream()
        .filter(type -> ProtoKinds.emptyMessage(type.group(), type.version(), type.kind()).isEmpty())
        .map(type -> type.apiVersion() + " " + type.kind()))
        .containsExactly("apiextensions.k8s.io/v1 CustomResourceDefinition", "coordination.k8s.io/v1 Lease",
            "discovery.k8s.io/v1 EndpointSlice", "events.k8s.io/v1 Event", "autoscaling/v2 HorizontalPodAutoscaler");
  }

  @Test
  void customGroupSharingAFirstLabelWithABuiltinOne_neverMatches() {
    assertThat(ProtoKinds.builtinGroup("apps")).isTrue();
    assertThat(ProtoKinds.builtinGroup("rbac.authorization.k8s.io")).isTrue();
    assertThat(ProtoKinds.builtinGroup("apps.example.com")).isFalse();
    assertThat(ProtoKinds.builtinGroup("gateway.networking.k8s.io")).isFalse();
    assertThat(ProtoKinds.emptyMessage("apps.example.com", "v1", "Deployment")).isEmpty();
    assertThat(ProtoKinds.emptyMessage("apps", "v1", "Deployment")).get()
        .extracting(m -> m.getDescriptorForType().getFullName()).isEqualTo("k8s.io.api.apps.v1.Deployment");
  }

  private static String decoded(String apiVersion, String kind, Message message) throws IOException {
    return JSON.writeValueAsString(ProtobufBody.decode(envelope(apiVersion, kind, message.toByteString(), "")));
  }

  private static byte[] envelope(String apiVersion, String kind, ByteString raw, String contentEncoding) {
    Runtime.Unknown unknown = Runtime.Unknown.newBuilder()
        .setTypeMeta(Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind))
        .setRaw(raw).setContentEncoding(contentEncoding).setContentType("").build();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(new byte[] {'k', '8', 's', 0});
    out.writeBytes(unknown.toByteArray());
    return out.toByteArray();
  }

  private static void assertRefused(byte[] body, int code, String reason, String message) {
    ApiError error = catchThrowableOfType(ApiError.class, () -> ProtobufBody.decode(body));
    assertThat(error).as("decoding was refused").isNotNull();
    assertThat(error.getMessage()).isEqualTo(message);
    assertThat(error.code()).isEqualTo(code);
    assertThat(error.reason()).isEqualTo(reason);
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = ProtobufBodyTest.class.getResourceAsStream("/protobuf/kubectl-1.32/" + name)) {
      assertThat(in).as("test resource protobuf/kubectl-1.32/%s", name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
