/**
 * Patch engines of the fake API server: pure functions from a stored object (Jackson
 * {@code JsonNode}) and a patch document to the patched object, with kube-apiserver's status codes
 * and texts when a patch fails ({@link dev.ctk.fake.internal.patch.PatchException}).
 *
 * <ul>
 *   <li>{@link dev.ctk.fake.internal.patch.JsonPatch}: {@code application/json-patch+json}
 *       (RFC 6902), with the quirks of the json-patch v4 library kube uses;
 *   <li>{@link dev.ctk.fake.internal.patch.JsonMergePatch}: {@code application/merge-patch+json}
 *       (RFC 7386);
 *   <li>{@link dev.ctk.fake.internal.patch.StrategicMergePatch}:
 *       {@code application/strategic-merge-patch+json} for built-in kinds, driven by
 *       {@link dev.ctk.fake.internal.patch.PatchSchema}.
 * </ul>
 *
 * <p>What it does not do:
 * <ul>
 *   <li>Strategic merge patch knows the tags of the Go types below the core/v1, apps/v1 and batch/v1
 *       kinds ({@code PatchSchema.FIELDS}; each kind names its root type in its row of
 *       {@code BuiltinKinds}) and {@code metadata} of every kind; any other built-in kind (networking,
 *       rbac, policy, ...) gets {@code metadata} only, so its tagged lists are replaced instead of merged. The table is transcribed from the {@code k8s.io/api} struct
 *       tags, not read from an OpenAPI document. Custom resources get no strategic merge patch: the
 *       fake answers 415 for them, as kube-apiserver does (that decision lives in the dispatcher).
 *   <li>No server-side apply ({@code application/apply-patch+yaml}), no managedFields, no field
 *       managers, no three-way patch creation ({@code kubectl apply}'s client side computes those).
 *   <li>Results are plain JSON: nothing is defaulted, validated or pruned here, and values are not
 *       decoded into Go types. Patch values lose {@code null} members and {@code $}-prefixed keys,
 *       which is what decoding into the Go types does; other differences that decoding would hide
 *       (e.g. a {@code $patch: delete} map leaving {@code {}}) are left to the caller.
 *   <li>No limits on patch size or JSON-patch {@code copy} growth (kube-apiserver caps both); only the
 *       10000-operation limit of JSON patch is enforced.
 *   <li>Parse errors of the patch bytes themselves (not JSON at all) are the caller's: these engines
 *       receive parsed JSON.
 * </ul>
 */
package dev.ctk.fake.internal.patch;
