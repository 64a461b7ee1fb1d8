"""Pure rules engines, one package per game, and the registry that names them."""

from engines.base import Engine

_REGISTRY: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    _REGISTRY[engine.name] = engine
    return engine


def get_engine(name: str) -> Engine:
    """The engine called `name`; KeyError if no such game exists."""
    if name not in _REGISTRY:
        import importlib

        if not name.isidentifier():
            raise KeyError(name)
        try:
            importlib.import_module(f"engines.{name}")
        except ModuleNotFoundError:
            raise KeyError(name) from None
    return _REGISTRY[name]


def all_engines() -> list[Engine]:
    _load_all()
    return [_REGISTRY[name] for name in sorted(_REGISTRY)]


def _load_all() -> None:
    # Importing a game package registers its engine; games that are not written yet are simply absent.
    import importlib
    import pkgutil

    import engines

    for info in pkgutil.iter_modules(engines.__path__):
        if info.ispkg:
            importlib.import_module(f"engines.{info.name}")
