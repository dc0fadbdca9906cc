"""What the OpenAPI document cannot say, taught to schemathesis (SCHEMATHESIS_HOOKS=fuzz_hooks): a
range whose desde is after its hasta is a 400 (tests/test_api_errors.py checks it); schemathesis would
otherwise count it, valid to the schema of each parameter alone, as wrongly refused."""

import schemathesis


@schemathesis.hook
def filter_query(ctx, query):
    if not query:
        return True
    desde, hasta = query.get("desde"), query.get("hasta")
    return not (isinstance(desde, str) and isinstance(hasta, str) and desde > hasta)
