package dev.ctk.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.harness.internal.perturb.EndState;
import dev.ctk.harness.internal.perturb.FieldPath;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Normalizing and comparing end states, ignored fields, generated names and leaks. */
class EndStateTest {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private static GenericKubernetesResource object(String json) {
    return JSON.unmarshal(json.replace('\'', '"'), GenericKubernetesResource.class);
  }

  private static GenericKubernetesResource configMap(String name, String uid, String rv, String data) {
    return object("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'" + name + "','namespace':'default',"
        + "'uid':'" + uid + "','resourceVersion':'" + rv + "','creationTimestamp':'2024-01-0" + rv
        + "T00:00:00Z','generation':" + rv + ",'managedFields':[{'manager':'m" + rv + "'}]},'data':" + data + "}");
  }

  private static GenericKubernetesResource generated(String name, String uid, String data) {
    return object("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'" + name + "','generateName':'web-',"
        + "'namespace':'default','uid':'" + uid + "','ownerReferences':[{'apiVersion':'v1','kind':'ConfigMap',"
        + "'name':'web','uid':'u-web-" + uid + "'}]},'data':" + data + "}");
  }

  private static List<String> diff(List<GenericKubernetesResource> perturbed,
      List<GenericKubernetesResource> reference, String... ignored) {
    List<FieldPath> paths = java.util.Arrays.stream(ignored)
        .map(p -> FieldPath.parse(p, "the test", IllegalArgumentException::new)).collect(Collectors.toList());
    return EndState.of(perturbed).diff(EndState.of(reference), paths).stream().map(EndState.Difference::text)
        .collect(Collectors.toList());
  }

  @Test
  void should_ignore_uids_resource_versions_timestamps_generation_and_managed_fields() {
    // WHEN
    List<String> differences = diff(List.of(configMap("web", "u1", "1", "{'a':'1'}")),
        List.of(configMap("web", "u2", "2", "{'a':'1'}")));
    // THEN
    assertThat(differences).isEmpty();
  }

  @Test
  void should_report_missing_extra_and_each_differing_field_with_both_values() {
    // WHEN
    List<String> differences = diff(
        List.of(configMap("web", "u1", "1", "{'a':'2','b':'x','c.d':'1'}"), configMap("new", "u3", "1", "{}")),
        List.of(configMap("web", "u2", "1", "{'a':'1','c.d':'2'}"), configMap("old", "u4", "1", "{}")));
    // THEN
    assertThat(differences).containsExactly(
        "extra: ConfigMap default/new",
        "missing: ConfigMap default/old",
        "ConfigMap default/web differs at data.a: reference \"1\", perturbed \"2\"",
        "ConfigMap default/web differs at data[\"c.d\"]: reference \"2\", perturbed \"1\"",
        "ConfigMap default/web differs at data.b: reference (absent), perturbed \"x\"");
  }

  @Test
  void should_give_both_values_whole_however_long_so_that_a_late_difference_shows() {
    // GIVEN two values of 80 characters that differ only in their last one
    String common = "x".repeat(79);
    // WHEN
    List<String> differences = diff(List.of(configMap("web", "u1", "1", "{'a':'" + common + "2'}")),
        List.of(configMap("web", "u2", "1", "{'a':'" + common + "1'}")));
    // THEN
    assertThat(differences).containsExactly("ConfigMap default/web differs at data.a: reference \""
        + common + "1\", perturbed \"" + common + "2\"");
  }

  @Test
  void should_match_objects_named_by_generate_name_as_a_multiset_per_owner() {
    // GIVEN the reference made two generated children, the perturbed run three (one a duplicate)
    List<GenericKubernetesResource> reference = List.of(generated("web-aaaaa", "1", "{'n':'1'}"),
        generated("web-bbbbb", "2", "{'n':'2'}"));
    List<GenericKubernetesResource> perturbed = List.of(generated("web-zzzzz", "3", "{'n':'2'}"),
        generated("web-yyyyy", "4", "{'n':'1'}"), generated("web-xxxxx", "5", "{'n':'1'}"));
    // WHEN
    List<String> differences = diff(perturbed, reference);
    // THEN only the surplus copy is reported, by its generated name
    assertThat(differences).containsExactly("extra: ConfigMap default/web-xxxxx (generateName web-)");
  }

  private static GenericKubernetesResource grandchild(String name, String owner, String data) {
    return object("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'" + name + "','generateName':'"
        + owner + "-','namespace':'default','uid':'g-" + name + "','ownerReferences':[{'apiVersion':'v1',"
        + "'kind':'ConfigMap','name':'" + owner + "','uid':'u-" + owner + "'}]},'data':" + data + "}");
  }

  @Test
  void should_match_generated_children_of_a_generated_owner_whatever_both_names() {
    // GIVEN each run's generated owner has a generated child named after it (generateName <owner>-)
    List<GenericKubernetesResource> reference = List.of(generated("web-aaaaa", "1", "{}"),
        grandchild("web-aaaaa-ccccc", "web-aaaaa", "{'n':'1'}"));
    List<GenericKubernetesResource> perturbed = List.of(generated("web-bbbbb", "2", "{}"),
        grandchild("web-bbbbb-ddddd", "web-bbbbb", "{'n':'1'}"), grandchild("web-bbbbb-eeeee", "web-bbbbb",
            "{'n':'1'}"));
    // WHEN
    List<String> differences = diff(perturbed, reference);
    // THEN the child matches; only the surplus copy is reported
    assertThat(differences).containsExactly(
        "extra: ConfigMap default/web-bbbbb-eeeee (generateName web-<generated>-)");
  }

  @Test
  void should_ignore_condition_times_and_a_services_allocated_addresses_by_default_and_nothing_else() {
    // GIVEN the runs differ in every field ignored by default, a condition's status, and a ConfigMap's clusterIP
    String service = "{'apiVersion':'v1','kind':'Service','metadata':{'name':'web','namespace':'default'},"
        + "'spec':{'clusterIP':'10.0.0.%1$s','clusterIPs':['10.0.0.%1$s'],'ports':[{'port':80,'nodePort':3000%1$s}]},"
        + "'status':{'conditions':[{'type':'Ready','status':'%2$s','lastTransitionTime':'2024-01-0%1$sT00:00:00Z',"
        + "'lastUpdateTime':'%1$s','lastHeartbeatTime':'%1$s','lastProbeTime':'%1$s'}]}}";
    String configMap = "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c','namespace':'default'},"
        + "'spec':{'clusterIP':'10.0.0.%s'}}";
    List<GenericKubernetesResource> reference = List.of(object(String.format(service, "1", "True")),
        object(String.format(configMap, "1")));
    List<GenericKubernetesResource> perturbed = List.of(object(String.format(service, "2", "False")),
        object(String.format(configMap, "2")));
    // WHEN
    List<String> differences = diff(perturbed, reference);
    // THEN
    assertThat(differences).containsExactly(
        "ConfigMap default/c differs at spec.clusterIP: reference \"10.0.0.1\", perturbed \"10.0.0.2\"",
        "Service default/web differs at status.conditions[0].status: reference \"True\", perturbed \"False\"");
  }

  @Test
  void should_read_generated_names_in_other_objects_values_as_their_generate_name() {
    // GIVEN each run's parent names its own generated child
    List<GenericKubernetesResource> reference = List.of(generated("web-aaaaa", "1", "{}"), object("{'apiVersion':"
        + "'v1','kind':'ConfigMap','metadata':{'name':'web','namespace':'default','annotations':{'child':"
        + "'web-aaaaa'}}}"));
    List<GenericKubernetesResource> perturbed = List.of(generated("web-bbbbb", "2", "{}"), object("{'apiVersion':"
        + "'v1','kind':'ConfigMap','metadata':{'name':'web','namespace':'default','annotations':{'child':"
        + "'web-bbbbb','other':'web-ccccc'}}}"));
    // WHEN
    List<String> differences = diff(perturbed, reference);
    // THEN
    assertThat(differences).containsExactly("ConfigMap default/web differs at metadata.annotations.other: "
        + "reference (absent), perturbed \"web-ccccc\"");
  }

  @Test
  void should_drop_ignored_fields_for_every_kind_or_for_the_kind_named() {
    // GIVEN
    List<GenericKubernetesResource> reference = List.of(object("{'apiVersion':'v1','kind':'ConfigMap',"
        + "'metadata':{'name':'web','namespace':'default','annotations':{'example.com/seen':'1'}},"
        + "'data':{'at':'1','keep':'1'}}"), object("{'apiVersion':'v1','kind':'Secret','metadata':{'name':'s',"
        + "'namespace':'default'},'data':{'at':'MQ=='},'status':{'items':[{'stamp':1,'v':1},{'stamp':2,'v':2}]}}"));
    List<GenericKubernetesResource> perturbed = List.of(object("{'apiVersion':'v1','kind':'ConfigMap',"
        + "'metadata':{'name':'web','namespace':'default','annotations':{'example.com/seen':'2'}},"
        + "'data':{'at':'2','keep':'1'}}"), object("{'apiVersion':'v1','kind':'Secret','metadata':{'name':'s',"
        + "'namespace':'default'},'data':{'at':'Mg=='},'status':{'items':[{'stamp':3,'v':1},{'stamp':4,'v':2}]}}"));
    // WHEN
    List<String> differences = diff(perturbed, reference, "metadata.annotations[\"example.com/seen\"]",
        "ConfigMap:data.at", "status.items[*].stamp");
    // THEN the Secret's data.at is not ignored: the path named ConfigMap only
    assertThat(differences).containsExactly(
        "Secret default/s differs at data.at: reference \"MQ==\", perturbed \"Mg==\"");
  }

  @Test
  void should_find_orphans_and_finalizers_never_removed() {
    // GIVEN
    EndState state = EndState.of(List.of(generated("web-aaaaa", "1", "{}"), object("{'apiVersion':'v1',"
        + "'kind':'ConfigMap','metadata':{'name':'gone','namespace':'default','uid':'g',"
        + "'deletionTimestamp':'2024-01-01T00:00:00Z','finalizers':['example.com/cleanup']}}")));
    // WHEN
    List<String> leaks = state.leaks().stream().map(EndState.Leak::text).collect(Collectors.toList());
    // THEN
    assertThat(leaks).containsExactly(
        "ConfigMap default/web-aaaaa is owned by ConfigMap web (uid u-web-1), which does not exist",
        "ConfigMap default/gone is being deleted (deletionTimestamp 2024-01-01T00:00:00Z) but its finalizers "
            + "[example.com/cleanup] were never removed");
  }

  @Test
  void should_refuse_a_field_path_it_cannot_read_saying_what_is_expected() {
    // WHEN
    IllegalArgumentException error = catchThrowableOfType(IllegalArgumentException.class,
        () -> FieldPath.parse("status..at", "@Perturbed on com.example.FooTest", IllegalArgumentException::new));
    // THEN
    assertThat(error).hasMessage("Invalid field path \"status..at\" in @Perturbed on com.example.FooTest: a field "
        + "name is empty. Expected a path into the object such as status.lastUpdated, "
        + "metadata.annotations[\"example.com/seen\"], spec.items[*].stamp, optionally for one kind: "
        + "ConfigMap:data.generatedAt.");
  }

  @Test
  void should_read_names_keys_indexes_and_wildcards_of_a_field_path() {
    // WHEN
    FieldPath path = FieldPath.parse("Deployment:spec.template.metadata.annotations[\"a.b/c\"].x[2][*]", "t",
        IllegalArgumentException::new);
    // THEN
    assertThat(path.kind()).isEqualTo("Deployment");
    assertThat(path.segments()).containsExactly("spec", "template", "metadata", "annotations", "a.b/c", "x", 2,
        FieldPath.ANY_ELEMENT);
  }
}
